import type { OutboxEntry } from '#shared';
import { backoffDelay } from './backoff';
import { keyMayHaveReached } from './entry-sending';
import { allSyncTables, recordTable } from '../db/record-tables';
import type { SyncContext } from './sync-context';
import type { SyncError } from './sync-error';

/**
 * The server did not take an entry: refused (parked for the technician), not now (back to wait
 * with a backoff), not without a sign-in (back untouched), or in conflict with an office change
 * (held for a choice). A step that also marks the record is one transaction over the record
 * tables and the outbox; one that changes only the entry takes the outbox alone.
 */

/** The server refused the change (409/422…): hold it, with the server's message, for the user. */
export async function park(ctx: SyncContext, entry: OutboxEntry, error: SyncError): Promise<void> {
  const { db } = ctx;
  await db.transaction('rw', allSyncTables(db), async () => {
    const current = await db.outbox.get(entry.id);
    if (!current) return;
    await db.outbox.update(entry.id, {
      state: 'parked',
      attempts: current.attempts + 1,
      lastError: error.toOutboxError(ctx.now()),
    });
    const problem = {
      code: error.body?.code ?? 'rejected',
      message:
        error.body?.message ?? `The server refused this change (HTTP ${error.status ?? '?'})`,
      ...(error.body?.fields ? { fields: error.body.fields } : {}),
    };
    // The stored entry's record: a fold (absorbDuplicate) may have moved it while it was sent.
    await recordTable(db, entry.entity).update(current.localId, { problem, syncState: 'failed' });
  });
}

/** A transient failure: try again after the backoff (Retry-After honoured as a minimum). */
export async function retryLater(
  ctx: SyncContext,
  entry: OutboxEntry,
  error: SyncError,
): Promise<number> {
  const { db } = ctx;
  let nextAttemptAt = ctx.now();
  await db.transaction('rw', db.outbox, async () => {
    const current = await db.outbox.get(entry.id);
    if (!current) return;
    const attempts = current.attempts + 1;
    nextAttemptAt = ctx.now() + backoffDelay(attempts, ctx.backoff, ctx.random, error.retryAfterMs);
    // A 429 is the BFF refusing before it forwards; every other transient failure may have
    // reached the server.
    const reached = error.reason === 'rate_limited' ? current : keyMayHaveReached(current);
    await db.outbox.put({
      ...reached,
      state: 'pending',
      attempts,
      nextAttemptAt,
      lastError: error.toOutboxError(ctx.now()),
    });
  });
  return nextAttemptAt;
}

/** Sign-in is needed: the entry goes back to the queue untouched (no attempt is counted). */
export async function holdForSignIn(
  ctx: SyncContext,
  entry: OutboxEntry,
  error: SyncError,
): Promise<void> {
  const { db } = ctx;
  await db.transaction('rw', db.outbox, async () => {
    if (!(await db.outbox.get(entry.id))) return;
    await db.outbox.update(entry.id, {
      state: 'pending',
      lastError: error.toOutboxError(ctx.now()),
    });
  });
}

/**
 * Someone changed, on the server, a field this edit changes too. Nothing is sent; the user
 * chooses field by field (resolveConflict). The server's current version is kept on the record
 * so the choice can be shown and applied offline.
 */
export async function markConflict(
  ctx: SyncContext,
  entry: OutboxEntry,
  server: Record<string, unknown>,
  fields: string[],
  error: SyncError,
): Promise<void> {
  const { db } = ctx;
  await db.transaction('rw', allSyncTables(db), async () => {
    const current = await db.outbox.get(entry.id);
    if (!current) return;
    await db.outbox.update(entry.id, {
      state: 'conflict',
      lastError: error.toOutboxError(ctx.now()),
    });
    // The stored entry's record: a fold (absorbDuplicate) may have moved it while it was sent.
    await recordTable(db, entry.entity).update(current.localId, {
      server,
      syncState: 'conflict',
      problem: {
        code: 'conflict',
        message: `Changed on the server since your edit: ${fields.join(', ')}. Choose which values to keep.`,
        fields: fields.map((path) => ({ path, message: 'Also changed on the server' })),
      },
    });
  });
}
