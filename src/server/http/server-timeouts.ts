import type { FastifyServerOptions } from 'fastify';

/**
 * How long either server (records service, BFF) waits on a client, in milliseconds. Without
 * them Fastify waits forever: a client that sends half a body and stops holds a socket (and the
 * memory of the half-read body) until it goes away, so a few thousand such clients starve the
 * server of sockets.
 */
export type ServerTimeouts = {
  /** Until the request line and headers are in (node's headersTimeout, answered 408). */
  headersMs: number;
  /** Until the whole request, body included, is in (answered 408). Does not bound the handler. */
  requestMs: number;
  /**
   * A socket with no traffic either way for this long is destroyed (Fastify's connectionTimeout).
   * A backstop longer than any wait of a handler on its upstream or database: the BFF waits up to
   * connect + response timeout (35 s by default) on each upstream call.
   */
  idleMs: number;
  /** An idle keep-alive connection between requests is closed after this long. */
  keepAliveMs: number;
};

/**
 * 10 s for headers is ample on any network that can sync at all; 30 s for a body lets a 1 MiB
 * body (the limit) through at 35 kB/s, and real records are 1–5 kB. Keep-alive stays above the
 * 60 s idle timeout of common reverse proxies (nginx, load balancers), so that the proxy, not
 * this server, closes an idle connection, and never as the proxy reuses it.
 */
export const DEFAULT_SERVER_TIMEOUTS: ServerTimeouts = {
  headersMs: 10_000,
  requestMs: 30_000,
  idleMs: 120_000,
  keepAliveMs: 72_000,
};

/** Node checks header and request deadlines on a timer (30 s by default): check often enough. */
function checkingIntervalMs(t: ServerTimeouts): number {
  return Math.max(50, Math.min(1_000, Math.floor(Math.min(t.headersMs, t.requestMs) / 4)));
}

/**
 * The Fastify options that enforce `timeouts` (defaults for what is not given). Over TLS the node
 * server options go into the `https` object, which Fastify passes to https.createServer.
 */
export function serverTimeoutOptions(
  overrides: Partial<ServerTimeouts> = {},
  https: { cert: string | Buffer; key: string | Buffer } | null = null,
): Partial<FastifyServerOptions> {
  const t = { ...DEFAULT_SERVER_TIMEOUTS, ...overrides };
  // node refuses headersTimeout > requestTimeout.
  const headersTimeout = Math.min(t.headersMs, t.requestMs);
  const nodeOptions = {
    headersTimeout,
    requestTimeout: t.requestMs,
    keepAliveTimeout: t.keepAliveMs,
    connectionsCheckingInterval: checkingIntervalMs(t),
  };
  return {
    requestTimeout: t.requestMs,
    connectionTimeout: t.idleMs,
    keepAliveTimeout: t.keepAliveMs,
    ...(https ? { https: { ...https, ...nodeOptions } } : { http: nodeOptions }),
  } as Partial<FastifyServerOptions>;
}
