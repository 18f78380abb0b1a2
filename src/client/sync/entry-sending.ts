import type { OutboxEntry } from '#shared';
import { KEY_TRUSTED_FOR_MS } from '#shared/schemas/outbox';
import type { SyncContext } from './sync-context';

/**
 * The Dexie writes of an entry going out: marked as being sent (and its payload frozen), or put
 * back to wait. They change only the entry, so they take the outbox alone; a record keeps its
 * stored state while its entry is sent ("Sending" is the engine's SyncStatus.sendingRecords, and a
 * 'syncing' an earlier version stored is read as 'queued' by the badge that shows it, the one
 * reader that tells the two apart). The other steps of an entry's life: entry-acknowledging.ts
 * (the server took it) and entry-refusing.ts (it did not).
 */

/**
 * Marks an entry as being sent. With `freeze`, it also fixes its payload for good (an edit made
 * from now on becomes a new update entry). Returns the entry as stored at that moment (a
 * repository may have edited it in place since the drain read it), or null if it left the outbox.
 */
export async function markSending(
  ctx: SyncContext,
  entryId: string,
  freeze: boolean,
): Promise<OutboxEntry | null> {
  const { db } = ctx;
  return db.transaction('rw', db.outbox, () => markInTransaction(ctx, entryId, freeze));
}

/**
 * markSending's writes, inside a read-write transaction over the outbox the caller runs.
 * A create's mark keeps when this request leaves (`sendingAt`), in the same write, so the time
 * survives a crash during the request: an entry found still marked was being sent when the app
 * died, and that request may have reached the server (keySentAt, see keyMayHaveReached).
 */
export async function markInTransaction(
  ctx: SyncContext,
  entryId: string,
  freeze: boolean,
): Promise<OutboxEntry | null> {
  const { db } = ctx;
  const entry = await db.outbox.get(entryId);
  if (!entry || (entry.state !== 'pending' && entry.state !== 'sending')) return null;
  // Left marked by an app that died mid-request, or tried by a version that kept no times.
  const triedBefore = entry.state === 'sending' || triedWithoutTimes(entry);
  const sending: OutboxEntry = {
    ...(triedBefore ? keyMayHaveReached(entry) : entry),
    state: 'sending',
    ...(freeze ? { frozen: true } : {}),
    ...(entry.op === 'create' ? { sendingAt: ctx.now() } : {}),
  };
  await db.outbox.put(sending);
  return sending;
}

/**
 * The entry after a request with its key may have reached the server (no answer, a timeout, a
 * 5xx, a crash mid-request): the first such request's time is kept as `keySentAt`. Creates only;
 * an answer that proves nothing was made (401, 429) does not count. Entries stored before these
 * times existed were tried at some time after their save: `createdAt` stands in, on the safe side.
 */
export function keyMayHaveReached(entry: OutboxEntry): OutboxEntry {
  if (entry.op !== 'create' || entry.keySentAt != null) return entry;
  // An entry a version without these times tried has only its save time, which no send precedes.
  return { ...entry, keySentAt: entry.sendingAt ?? entry.createdAt };
}

/** Tried (attempts counted) by a version of the app that kept no send times. */
export const triedWithoutTimes = (e: OutboxEntry) => e.sendingAt == null && e.attempts > 0;

/**
 * Whether the servers may have forgotten this create's key (contract §9: 24 hours) while a
 * request with it may have reached them: sent again under that key, it could make a second
 * record. The drain parks such a create for the technician instead (see sendEntry). A key sent
 * "later than now" was sent before the tablet's clock was set back, by an unknown amount: how
 * long ago cannot be told, so it is not trusted either.
 */
export function keyMayBeForgotten(entry: OutboxEntry, now: number): boolean {
  if (entry.keySentAt == null) return false;
  return now - entry.keySentAt > KEY_TRUSTED_FOR_MS || entry.keySentAt - now > CLOCK_SET_BACK_MS;
}

/**
 * A time stamped this far after now was stamped before the clock was set back (entry times run
 * ahead of the clock by a few ms at most).
 */
const CLOCK_SET_BACK_MS = 60_000;

/**
 * Undoes a mark made by acknowledgeAll's `thenSend` for an entry that will not be sent now (the
 * drain stopped meanwhile): back to waiting, frozen only if it was before (`wasFrozen`). Until then it would count as being sent, and an edit or a delete of a record
 * the server never received would go out as requests of their own.
 */
export async function unmarkSending(
  ctx: SyncContext,
  entryId: string,
  wasFrozen: boolean,
): Promise<void> {
  const { db } = ctx;
  await db.transaction('rw', db.outbox, async () => {
    const entry = await db.outbox.get(entryId);
    if (entry?.state !== 'sending') return;
    await db.outbox.put({ ...entry, state: 'pending', frozen: wasFrozen });
  });
}
