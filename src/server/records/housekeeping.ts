import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../db/database';
import { refreshStatistics } from '../db/refresh-statistics';
import type { RecordsContext } from './context';
import { IDEMPOTENCY_WINDOW_MS } from '#shared/schemas/outbox';

/**
 * Expired login tokens are kept a week so a late request still gets token_expired, not
 * unauthenticated; longer when the renew window is longer (`keptExpiredLoginTokensMs`).
 */
export const EXPIRED_TOKEN_GRACE_MS = 7 * 86_400_000;

/**
 * How long expired login tokens are kept: at least the renew window (POST /login/renew), or a
 * token still renewable would be deleted first and its tablet asked for the password
 * (TRAPLINE_RENEW_WINDOW_S of two weeks, a tablet restarted after ten days).
 */
export function keptExpiredLoginTokensMs(ctx: Pick<RecordsContext, 'renewWindowSeconds'>): number {
  return Math.max(EXPIRED_TOKEN_GRACE_MS, ctx.renewWindowSeconds * 1000);
}
const EVERY_MS = 3600_000;
/**
 * Statistics rounds (PGlite only): once a minute, and early after this many writes, at the first
 * pause of STATISTICS_QUIET_MS in requests.
 */
export const STATISTICS_EVERY_MS = 60_000;
export const STATISTICS_EVERY_WRITES = 500;
export const STATISTICS_QUIET_MS = 1000;

/**
 * Deletes login tokens expired over `keptTokensMs` ago (a week by default) and idempotency keys
 * past their 24 hours.
 */
export async function purgeExpired(
  db: Queryable,
  now: Date,
  keptTokensMs = EXPIRED_TOKEN_GRACE_MS,
): Promise<{ tokens: number; keys: number }> {
  const tokens = await db.query(
    `delete from api_token where kind = 'login' and expires_at < $1 returning id`,
    [new Date(now.getTime() - keptTokensMs).toISOString()],
  );
  // Keys still in flight (no answer) are kept: their request may still be running.
  const keys = await db.query(
    `delete from idempotency_key where created_at < $1 and status is not null returning key`,
    [new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS).toISOString()],
  );
  return { tokens: tokens.rows.length, keys: keys.rows.length };
}

/**
 * Purges once the app is ready, then hourly until it closes. On PGlite, which has no autovacuum,
 * also keeps the planner's statistics current (`refreshStatistics`) once the app is ready, every
 * minute, and after every `STATISTICS_EVERY_WRITES` writes once requests pause, so list pages
 * keep using their indexes as the data grows; PostgreSQL's autovacuum does that itself.
 * Failures are logged, never fatal.
 */
export function scheduleHousekeeping(app: FastifyInstance, ctx: RecordsContext): void {
  const timers: NodeJS.Timeout[] = [];
  let closed = false;
  let refreshing: Promise<void> | null = null;
  const run = () =>
    purgeExpired(ctx.db, ctx.now(), keptExpiredLoginTokensMs(ctx)).catch((err) =>
      app.log.warn({ err }, 'housekeeping failed'),
    );
  // One round at a time, none after close; close waits for the running one (the database closes next).
  const statistics = (options: { grownOnly?: boolean } = {}) => {
    if (closed) return;
    refreshing ??= refreshStatistics(ctx.db, options)
      .then(
        () => undefined,
        (err: unknown) => app.log.warn({ err }, 'statistics refresh failed'),
      )
      .finally(() => (refreshing = null));
  };
  const pglite = ctx.db.kind === 'pglite';
  app.addHook('onReady', async () => {
    await run();
    timers.push(setInterval(() => void run(), EVERY_MS));
    if (pglite) {
      statistics();
      timers.push(setInterval(() => statistics(), STATISTICS_EVERY_MS));
    }
    for (const t of timers) t.unref();
  });
  // Every STATISTICS_EVERY_WRITES writes, the tables that doubled are analysed at once: the
  // plans of a table that grew from a few rows to thousands in one burst (a tablet's sync after a
  // week offline; the idempotency journal) must follow it, or every request of the burst scans
  // the whole table (keyed creates fell from ~800 to ~150-400 a second without it). The full
  // round (ANALYZE of every table changed by 50 + 10 %, 15-40 ms a large table, blocking PGlite)
  // waits for the first pause of STATISTICS_QUIET_MS in requests, or the minute's round, as
  // autovacuum visits a database once a minute.
  let waiting: NodeJS.Timeout | null = null;
  if (pglite) {
    let writes = 0;
    let lastResponse = 0;
    const whenQuiet = () => {
      const quietFor = performance.now() - lastResponse;
      // A round still running (one of the doubled tables) would make this one a no-op: wait.
      if (quietFor < STATISTICS_QUIET_MS || refreshing) {
        waiting = setTimeout(whenQuiet, Math.max(STATISTICS_QUIET_MS - quietFor, 100));
        waiting.unref();
        return;
      }
      waiting = null;
      statistics();
    };
    app.addHook('onResponse', async (req) => {
      lastResponse = performance.now();
      if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return;
      writes += 1;
      if (writes < STATISTICS_EVERY_WRITES) return;
      writes = 0;
      statistics({ grownOnly: true });
      if (waiting) return;
      waiting = setTimeout(whenQuiet, STATISTICS_QUIET_MS);
      waiting.unref();
    });
  }
  app.addHook('onClose', async () => {
    closed = true;
    for (const t of timers) clearInterval(t);
    if (waiting) clearTimeout(waiting);
    await refreshing;
  });
}
