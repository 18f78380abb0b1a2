import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { answerClientError } from '../http/client-errors';
import { answerFrameworkError } from '../http/framework-errors';
import { serializeRequest } from '../http/request-log';
import { useStrictJsonBodies } from '../http/strict-json-bodies';
import { useErrorHandler } from '../http/error-handler';
import { serverTimeoutOptions, type ServerTimeouts } from '../http/server-timeouts';
import type { Database } from '../db/database';
import { HttpError } from '../http/http-error';
import type { RecordsContext } from './context';
import { registerRecordsRoutes } from './routes';
import { useRouteSchemas } from './route-validation';
import { readQueryString } from './list/list-querystring';
import { useOpenApi } from './openapi/swagger';
import { scheduleHousekeeping } from './housekeeping';
import { DEFAULT_LOGIN_LIMITS, type LoginLimitOptions } from '../http/login-limits';
import { lookupCatalog } from './common/lookup-catalog';
import { useCompression } from '../http/compression';
import { recordsCompressionPolicy } from './compression-policy';

export type RecordsOptions = {
  db: Database;
  tokenTtlSeconds?: number;
  renewWindowSeconds?: number;
  trustProxy?: string[];
  idempotency?: boolean;
  now?: () => Date;
  logger?: FastifyServerOptions['logger'];
  https?: { cert: string | Buffer; key: string | Buffer } | null;
  loginLimits?: Partial<LoginLimitOptions>;
  /** How long a client may take to send a request (defaults: DEFAULT_SERVER_TIMEOUTS). */
  timeouts?: Partial<ServerTimeouts>;
};

/** A week: the tablet left in a drawer over a long weekend is still signed in on Monday. */
export const DEFAULT_RENEW_WINDOW_S = 7 * 86_400;

export const BODY_LIMIT = 1024 * 1024;

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route of the records service as registered (collected through onRoute). */
    recordsRoutes: Array<{ method: string; url: string }>;
  }
}

/** Never log credentials: these paths are replaced by "[redacted]" in every log line. */
export const LOG_REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'password',
  'token',
  '*.password',
  '*.token',
];

/** Query parameters whose values never reach a log line (POST /login accepts credentials there). */
/** Builds the records service (not listening). The caller closes it. */
export async function buildRecords(options: RecordsOptions): Promise<FastifyInstance> {
  const ctx: RecordsContext = {
    db: options.db,
    tokenTtlSeconds: options.tokenTtlSeconds ?? 3600,
    renewWindowSeconds: options.renewWindowSeconds ?? DEFAULT_RENEW_WINDOW_S,
    trustProxy: options.trustProxy ?? [],
    idempotency: options.idempotency ?? true,
    now: options.now ?? (() => new Date()),
    loginLimits: { ...DEFAULT_LOGIN_LIMITS, ...options.loginLimits },
    lookups: lookupCatalog(),
  };
  const logger =
    options.logger === undefined || options.logger === false
      ? false
      : {
          level: 'info',
          ...(options.logger === true ? {} : (options.logger as object)),
          redact: { paths: LOG_REDACT, censor: '[redacted]' },
          serializers: { req: serializeRequest },
        };
  const app = Fastify({
    bodyLimit: BODY_LIMIT,
    logger,
    ...(options.https ? { https: options.https } : {}),
    ...serverTimeoutOptions(options.timeouts, options.https ?? null),
    // Query strings like query[site][$in][0]=4 are read with the shared codec; route schemas
    // validate what it reads (route-validation.ts), a string it cannot read too.
    routerOptions: { ignoreTrailingSlash: true, querystringParser: readQueryString },
    // What node's HTTP parser refuses is answered with the contract's error body too.
    clientErrorHandler: answerClientError,
    // What the router refuses before any route (a bad %-escape in the path) too.
    frameworkErrors: answerFrameworkError,
  } as FastifyServerOptions) as unknown as FastifyInstance;

  // Strict JSON: malformed → 400, any other media type on a body → 415 (contract §2).
  useStrictJsonBodies(app, BODY_LIMIT);

  useErrorHandler(app, 'Something went wrong on the records service; the request was not applied');
  app.setNotFoundHandler((req, reply) => {
    reply
      .status(404)
      .send(
        new HttpError(404, 'not_found', `No route ${req.method} ${req.url.split('?')[0]}`).toBody(),
      );
  });

  const routes: Array<{ method: string; url: string }> = [];
  app.decorate('recordsRoutes', routes);
  app.addHook('onRoute', (r) => {
    for (const method of [r.method].flat()) routes.push({ method, url: r.url });
  });

  // Before any route: compression is decided per route as routes are added.
  await useCompression(app, recordsCompressionPolicy);
  useRouteSchemas(app);
  await useOpenApi(app);
  await registerRecordsRoutes(app, ctx);
  scheduleHousekeeping(app, ctx);
  return app;
}
