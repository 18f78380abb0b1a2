import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../db/database';
import type { RecordsContext } from './context';
import { IDEMPOTENCY_WINDOW_MS } from './idempotency';

/** Expired login tokens are kept a week so a late request still gets token_expired, not unauthenticated. */
export const EXPIRED_TOKEN_GRACE_MS = 7 * 86_400_000;
const EVERY_MS = 3600_000;

/** Deletes login tokens expired over a week ago and idempotency keys past their 24 hours. */
export async function purgeExpired(
  db: Queryable,
  now: Date,
): Promise<{ tokens: number; keys: number }> {
  const tokens = await db.query(
    `delete from api_token where kind = 'login' and expires_at < $1 returning id`,
    [new Date(now.getTime() - EXPIRED_TOKEN_GRACE_MS).toISOString()],
  );
  // Keys still in flight (no answer) are kept: their request may still be running.
  const keys = await db.query(
    `delete from idempotency_key where created_at < $1 and status is not null returning key`,
    [new Date(now.getTime() - IDEMPOTENCY_WINDOW_MS).toISOString()],
  );
  return { tokens: tokens.rows.length, keys: keys.rows.length };
}

/** Purges once the app is ready, then hourly until it closes. Failures are logged, never fatal. */
export function scheduleHousekeeping(app: FastifyInstance, ctx: RecordsContext): void {
  let timer: NodeJS.Timeout | undefined;
  const run = () =>
    purgeExpired(ctx.db, ctx.now()).catch((err) => app.log.warn({ err }, 'housekeeping failed'));
  app.addHook('onReady', async () => {
    await run();
    timer = setInterval(run, EVERY_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
  });
}
