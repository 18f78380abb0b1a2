import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { serializeRequest } from '../http/request-log';
import { useStrictJsonBodies } from '../http/strict-json-bodies';
import { serverTimeoutOptions, type ServerTimeouts } from '../http/server-timeouts';
import type { Database } from '../db/database';
import { ApiError } from './errors';
import type { RecordsContext } from './context';
import { registerRecordsRoutes } from './routes';
import { scheduleHousekeeping } from './housekeeping';
import { DEFAULT_LOGIN_LIMITS, type LoginLimitOptions } from './auth/login-limits';

export type RecordsOptions = {
  db: Database;
  tokenTtlSeconds?: number;
  trustProxy?: string[];
  idempotency?: boolean;
  now?: () => Date;
  logger?: FastifyServerOptions['logger'];
  https?: { cert: string | Buffer; key: string | Buffer } | null;
  loginLimits?: Partial<LoginLimitOptions>;
  /** How long a client may take to send a request (defaults: DEFAULT_SERVER_TIMEOUTS). */
  timeouts?: Partial<ServerTimeouts>;
};

export const BODY_LIMIT = 1024 * 1024;

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
    trustProxy: options.trustProxy ?? [],
    idempotency: options.idempotency ?? true,
    now: options.now ?? (() => new Date()),
    loginLimits: { ...DEFAULT_LOGIN_LIMITS, ...options.loginLimits },
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
    // Query strings like query[site][$in][0]=4 are parsed by the list module itself.
    routerOptions: { ignoreTrailingSlash: true },
  } as FastifyServerOptions) as unknown as FastifyInstance;

  // Strict JSON: malformed → 400, any other media type on a body → 415 (contract §2).
  useStrictJsonBodies(
    app,
    BODY_LIMIT,
    (status, code, message) => new ApiError(status, code, message),
  );

  app.setErrorHandler((err, req, reply) => {
    const e = toApiError(err);
    if (e.status >= 500) req.log.error({ err }, 'unexpected error');
    for (const [k, v] of Object.entries(e.headers ?? {})) reply.header(k, v);
    return reply.status(e.status).send(e.toBody());
  });
  app.setNotFoundHandler((req, reply) => {
    reply
      .status(404)
      .send(
        new ApiError(404, 'not_found', `No route ${req.method} ${req.url.split('?')[0]}`).toBody(),
      );
  });

  await registerRecordsRoutes(app, ctx);
  scheduleHousekeeping(app, ctx);
  return app;
}

/** Maps anything thrown to the contract's error: never a stack or SQL in the body. */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  const e = err as { code?: string; statusCode?: number; message?: string };
  switch (e.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError(413, 'payload_too_large', 'The body is larger than 1 MiB');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError(
        415,
        'unsupported_media_type',
        'Send JSON with Content-Type: application/json',
      );
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError(400, 'bad_request', e.message ?? 'Bad request');
  }
  if (err instanceof SyntaxError)
    return new ApiError(400, 'bad_request', 'The body is not valid JSON');
  if (e.statusCode === 413)
    return new ApiError(413, 'payload_too_large', 'The body is larger than 1 MiB');
  if (e.statusCode === 415)
    return new ApiError(
      415,
      'unsupported_media_type',
      'Send JSON with Content-Type: application/json',
    );
  if (e.statusCode && e.statusCode >= 400 && e.statusCode < 500)
    return new ApiError(400, 'bad_request', e.message ?? 'Bad request');
  return new ApiError(
    500,
    'internal',
    'Something went wrong on the records service; the request was not applied',
  );
}
