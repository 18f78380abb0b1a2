import cookie from '@fastify/cookie';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { useStrictJsonBodies } from '../http/strict-json-bodies';
import { answerClientError } from '../http/client-errors';
import { answerFrameworkError } from '../http/framework-errors';
import { useErrorHandler } from '../http/error-handler';
import type { Database } from '../db/database';
import { appShell } from './app-shell';
import { useCompression } from '../http/compression';
import { bffCompressionPolicy } from './compression-policy';
import { HttpError } from '../http/http-error';
import type { BffContext } from './context';
import { IdempotencyJournal } from './idempotency-journal';
import { infoRoutes } from './info-routes';
import { DEFAULT_LOGIN_LIMITS, type LoginLimitOptions } from '../http/login-limits';
import { LookupCache, loadLookupCatalog, type LookupCatalog } from './lookup-cache';
import { lookupsRoute } from './lookups-route';
import { mapArchiveRoute } from './map-archive-route';
import { allowedMethods } from './proxy-allow-list';
import { methodNotAllowed, proxyRoutes } from './proxy-routes';
import { reportsRoutes } from './reports/reports-routes';
import { exportRoutes } from './exports/export-routes';
import { siteImportRoutes } from './site-import/site-import-route';
import { attachmentRoutes } from './attachments/attachment-routes';
import { DEFAULT_PHOTO_QUOTA_BYTES } from './attachments/photo-quota';
import { uploadRoutes } from './attachments/upload-routes';
import { capConnectionsPerAddress, DEFAULT_CONNECTIONS_PER_ADDRESS } from './connection-cap';
import { serializeRequest } from '../http/request-log';
import { serverTimeoutOptions, type ServerTimeouts } from '../http/server-timeouts';
import { csrfGuard, rejectAmbiguousPath } from './request-guards';
import { inlineScriptSources } from './inline-scripts';
import { securityHeaders } from './security-headers';
import { sessionRoutes } from './session-routes';
import { processSessionKey } from './session-key';
import { SessionStore } from './session-store';
import { TokenCipher } from './token-cipher';
import { UpstreamKeys } from './upstream-keys';
import { UpstreamClient } from './upstream-client';

export const BODY_LIMIT = 1024 * 1024;
export const DEFAULT_TILE_URL = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';

/** Never log credentials: these paths are replaced by "[redacted]" in every log line. */
export const LOG_REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  'password',
  'token',
  '*.password',
  '*.token',
  '*.upstream_token',
];

export type BffOptions = {
  db: Database;
  /** Base URL of the records service (the bundled one or a hosted one). */
  upstreamUrl: string;
  tileUrl?: string;
  /** TILE_URL's server allows bulk downloading: the app offers offline map areas (default no). */
  tileBulkDownload?: boolean;
  /** Path of a PMTiles map archive (TILE_PMTILES): served, and the map draws from it. */
  tileArchive?: string;
  /** The map's credit line as plain text (TILE_ATTRIBUTION). */
  tileAttribution?: string;
  /** The built app (dist/); null or missing → /api only. */
  staticRoot?: string | null;
  upstreamConnectTimeoutMs?: number;
  upstreamTimeoutMs?: number;
  /** How long a forwarding process owns an idempotency key; default: connect + response timeout + 5 s. */
  journalLeaseMs?: number;
  /**
   * Open connections one (non-loopback) client address may hold (default
   * DEFAULT_CONNECTIONS_PER_ADDRESS; 0: no cap). TRAPLINE_MAX_CONNECTIONS_PER_ADDRESS.
   */
  maxConnectionsPerAddress?: number;
  /** Smallest export page_size accepted (default MIN_EXPORT_PAGE_SIZE; tests of paging lower it). */
  exportMinPageSize?: number;
  /** Idempotency keys one user may hold in 24 h (default DEFAULT_ENTRIES_PER_USER). */
  journalEntriesPerUser?: number;
  lookupTtlMs?: number;
  /**
   * How long a session outlives its upstream token (TRAPLINE_RENEW_WINDOW_S): the window in which
   * it is renewed on the tablet's next request (default DEFAULT_SESSION_IDLE_MS, a week).
   */
  sessionIdleMs?: number;
  /** Path of a catalog file or the catalog itself; default the shipped lookup-catalog.json. */
  lookupCatalog?: string | LookupCatalog;
  loginLimits?: Partial<LoginLimitOptions>;
  allowedOrigins?: string[];
  trustProxy?: boolean | string[];
  https?: { cert: string | Buffer; key: string | Buffer } | null;
  logger?: FastifyServerOptions['logger'];
  now?: () => Date;
  /** How long a browser may take to send a request (defaults: DEFAULT_SERVER_TIMEOUTS). */
  timeouts?: Partial<ServerTimeouts>;
  /** Bytes of photos one agency may store (TRAPLINE_PHOTO_QUOTA_MB; default DEFAULT_PHOTO_QUOTA_BYTES). */
  photoQuotaBytes?: number;
  /** 32 bytes sealing upstream tokens at rest (loadSessionKey); default: one per process. */
  sessionKey?: Buffer;
};

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route of the BFF as registered (collected through onRoute). */
    bffRoutes: Array<{ method: string; url: string }>;
  }
}

/** Builds the BFF (not listening). Closing it closes its upstream pool, not the database. */
export async function buildBff(options: BffOptions): Promise<FastifyInstance> {
  const now = options.now ?? (() => new Date());
  const connectTimeoutMs = options.upstreamConnectTimeoutMs ?? 5_000;
  const responseTimeoutMs = options.upstreamTimeoutMs ?? 30_000;
  const upstream = new UpstreamClient(options.upstreamUrl, { connectTimeoutMs, responseTimeoutMs });
  const catalog =
    typeof options.lookupCatalog === 'object'
      ? options.lookupCatalog
      : loadLookupCatalog(options.lookupCatalog);
  const ctx: BffContext = {
    db: options.db,
    upstream,
    upstreamKeys: new UpstreamKeys(upstream, now),
    sessions: new SessionStore(options.db, sessionCipher(options), options.sessionIdleMs),
    journal: new IdempotencyJournal(
      options.db,
      options.journalLeaseMs ?? connectTimeoutMs + responseTimeoutMs + 5_000,
      now,
      options.journalEntriesPerUser,
    ),
    lookups: new LookupCache(upstream, catalog, options.lookupTtlMs ?? 300_000, now),
    loginLimits: { ...DEFAULT_LOGIN_LIMITS, ...options.loginLimits },
    tileUrl: options.tileUrl ?? DEFAULT_TILE_URL,
    tileBulkDownload: options.tileBulkDownload ?? false,
    tileArchive: options.tileArchive,
    tileAttribution: options.tileAttribution,
    allowedOrigins: options.allowedOrigins ?? [],
    now,
  };

  const app = Fastify({
    bodyLimit: BODY_LIMIT,
    logger: withRedaction(options.logger),
    trustProxy: options.trustProxy ?? false,
    ...(options.https ? { https: options.https } : {}),
    ...serverTimeoutOptions(options.timeouts, options.https ?? null),
    routerOptions: { ignoreTrailingSlash: true },
    // What node's HTTP parser refuses is answered with the contract's error body too.
    clientErrorHandler: answerClientError,
    // What the router refuses before any route (a bad %-escape in the path) too.
    frameworkErrors: answerFrameworkError,
  } as FastifyServerOptions) as unknown as FastifyInstance;

  capConnectionsPerAddress(
    app.server,
    options.maxConnectionsPerAddress ?? DEFAULT_CONNECTIONS_PER_ADDRESS,
  );

  const routes: Array<{ method: string; url: string }> = [];
  app.decorate('bffRoutes', routes);
  app.addHook('onRoute', (r) => {
    for (const method of [r.method].flat()) routes.push({ method, url: r.url });
  });
  // By onClose every browser request has been answered, so nothing waits on the pool any more;
  // close() would also wait out keep-alive sockets the upstream holds open.
  app.addHook('onClose', async () => {
    await upstream.destroy();
  });

  // Strict JSON bodies: malformed → 400, any other media type → 415, over 1 MiB → 413.
  useStrictJsonBodies(app, BODY_LIMIT);

  useErrorHandler(app, 'Something went wrong in Trapline; the request was not applied');

  // Security headers first: onRequest hooks run in the order they are added, and the guards
  // below answer early (400, 403); those answers must carry the headers too.
  await securityHeaders(app, inlineScriptSources(options.staticRoot ?? null));
  app.addHook('onRequest', rejectAmbiguousPath);
  app.addHook('onRequest', csrfGuard(ctx.allowedOrigins));
  await app.register(cookie);
  // Before any route: compression is decided per route as routes are added.
  await useCompression(app, bffCompressionPolicy);

  await infoRoutes(app, ctx);
  await sessionRoutes(app, ctx);
  await lookupsRoute(app, ctx);
  await reportsRoutes(app, ctx);
  await exportRoutes(app, ctx, { minPageSize: options.exportMinPageSize });
  await siteImportRoutes(app, ctx);
  await uploadRoutes(app, ctx, {
    quotaBytes: options.photoQuotaBytes ?? DEFAULT_PHOTO_QUOTA_BYTES,
  });
  await attachmentRoutes(app, ctx);
  await proxyRoutes(app, ctx);
  if (ctx.tileArchive) await mapArchiveRoute(app, ctx.tileArchive);
  const shell = await appShell(app, options.staticRoot ?? null);

  app.setNotFoundHandler((req, reply) => {
    const url = req.raw.url ?? '/';
    const path = url.split('?', 1)[0];
    if (shell?.isClientRoute(req.method, path)) return shell.serveIndex(reply);
    if (path.startsWith('/api/v1/')) {
      const allow = allowedMethods(path.slice('/api'.length));
      if (allow.length > 0) throw methodNotAllowed(req.method, path, allow);
    }
    throw new HttpError(404, 'not_found', `Nothing at ${req.method} ${path}`);
  });
  return app;
}

function sessionCipher(options: BffOptions): TokenCipher {
  return new TokenCipher(options.sessionKey ?? processSessionKey());
}

function withRedaction(logger: BffOptions['logger']): FastifyServerOptions['logger'] {
  if (logger === undefined || logger === false) return false;
  const safe = { redact: LOG_REDACT, serializers: { req: serializeRequest } };
  if (logger === true) return { level: 'info', ...safe };
  if (typeof logger === 'object') return { ...logger, ...safe } as FastifyServerOptions['logger'];
  return logger;
}

export type RunningBff = { app: FastifyInstance; url: string; close: () => Promise<void> };

/**
 * Builds and listens (port 0 → an ephemeral port). Sweeps ended sessions and old journal rows
 * every ten minutes. `close` stops listening and the sweeper; the database stays open.
 */
export async function startBff(
  options: BffOptions & { port?: number; host?: string },
): Promise<RunningBff> {
  const app = await buildBff(options);
  const now = options.now ?? (() => new Date());
  const sessions = new SessionStore(options.db, sessionCipher(options), options.sessionIdleMs);
  const journal = new IdempotencyJournal(options.db, 0, now);
  const sweep = () =>
    Promise.all([sessions.sweep(now()), journal.sweep()]).catch((err) =>
      app.log.warn({ err }, 'sweep failed'),
    );
  const timer = setInterval(() => void sweep(), 10 * 60_000);
  timer.unref();
  const address = await app.listen({ port: options.port ?? 0, host: options.host ?? '127.0.0.1' });
  return {
    app,
    url: address,
    close: async () => {
      clearInterval(timer);
      // Graceful: in-flight requests finish; their keep-alive connections become idle only
      // afterwards, and server.close() closes idle connections only once, so keep closing them.
      const reaper = setInterval(() => app.server.closeIdleConnections(), 100);
      try {
        await app.close();
      } finally {
        clearInterval(reaper);
      }
    },
  };
}
