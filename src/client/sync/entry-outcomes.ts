import type { Table, UpdateSpec } from 'dexie';
import type { OutboxEntry } from '../../shared';
import { backoffDelay } from './backoff';
import { normalizeValue } from '../db/field-values';
import { CHILD_ENTITY } from '#shared/entities';
import { allSyncTables, recordTable, type AnyRecordRow } from './record-tables';
import type { SyncContext } from './sync-context';
import type { SyncError } from './sync-error';
import { KEY_TRUSTED_FOR_MS } from '#shared/schemas/outbox';

/**
 * The Dexie writes of each step of an entry's life. Each is ONE transaction over the record and
 * the outbox, so a record's state and its entry never disagree, whatever crashes in between;
 * steps that change only the entry (marking it as being sent, putting it back to wait) take the
 * outbox alone. A record keeps its stored state while its entry is sent: "Sending" is the
 * engine's (SyncStatus.sendingRecords), and a 'syncing' an earlier version stored is read as
 * 'queued' by the badge that shows it, the one reader that tells the two apart.
 *
 * The drain writes these for every entry, so each request counts:
 * - a record row is changed with `changeRow` (Dexie's bulkUpdate: read and write, two IndexedDB
 *   requests), not `update` (which first lists the keys it will modify: three). A plain `put`
 *   would be one, but it hides the old row from Dexie's change tracking, and every live query
 *   on the table (the screens' lists) would then run again after each write;
 * - an outbox entry read in the transaction is written back whole with `put`: what watches the
 *   outbox (the sync engine's counts, the sync screen) reads all of it after any change anyway.
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
async function markInTransaction(
  ctx: SyncContext,
  entryId: string,
  freeze: boolean,
): Promise<OutboxEntry | null> {
  const { db } = ctx;
  const entry = await db.outbox.get(entryId);
  if (!entry || (entry.state !== 'pending' && entry.state !== 'sending')) return null;
  // Left marked by an app that died mid-request, or tried by a version that kept no times.
  const triedBefore = entry.state === 'sending' || (entry.sendingAt == null && entry.attempts > 0);
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
function keyMayHaveReached(entry: OutboxEntry): OutboxEntry {
  if (entry.op !== 'create' || entry.keySentAt != null) return entry;
  // An entry a version without these times tried has only its save time, which no send precedes.
  return { ...entry, keySentAt: entry.sendingAt ?? entry.createdAt };
}

/**
 * Whether the servers may have forgotten this create's key (contract §9: 24 hours) while a
 * request with it may have reached them: sent again under that key, it could make a second
 * record. The drain parks such a create for the technician instead (see sendEntry).
 */
export function keyMayBeForgotten(entry: OutboxEntry, now: number): boolean {
  return entry.keySentAt != null && now - entry.keySentAt > KEY_TRUSTED_FOR_MS;
}

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

export type Acknowledged = {
  /** The serverId a create stored on its record; null for other steps or a record no longer here. */
  serverId: number | null;
  /** The entry named in `thenSend`, marked as being sent and frozen; null if it is not sendable. */
  next: OutboxEntry | null;
};

export type AckRequest = { entry: OutboxEntry; body: unknown; thenSend?: string };

/**
 * The server acknowledged these entries: store what it answered and drop each entry, in ONE
 * transaction (all commit together or none does).
 * Step order matters: a parent's serverId is written in the same transaction that removes its
 * entry, so a child that sees the entry gone always finds the serverId.
 * `thenSend`: a create an acknowledgement releases, to be sent next. It is marked as being sent
 * and frozen (markSending) in the same transaction, so a queue of chains costs one transaction
 * per entry instead of two; the mark commits with the parent's acknowledgement or not at all,
 * and the child is sent only after both have committed.
 * Several at once (group commit): a transaction costs more than its requests (its commit,
 * Dexie's bookkeeping, a change notification to every live query): with the servers and the
 * tablet on one thread (the Node drain bench), writing answers that arrived together in one
 * transaction cut the drain by a sixth for the same requests.
 */
export async function acknowledgeAll(
  ctx: SyncContext,
  requests: readonly AckRequest[],
): Promise<Acknowledged[]> {
  const { db } = ctx;
  return db.transaction('rw', allSyncTables(db), async () => {
    const serverIds: Array<number | null> = [];
    for (const { entry, body } of requests)
      serverIds.push(await storeAcknowledgement(ctx, entry, body));
    // Marked after every member is stored: a member's acknowledgement may move a released
    // child's reference (absorbDuplicate), and the child is sent as its mark reads it.
    const results: Acknowledged[] = [];
    for (const [i, { thenSend }] of requests.entries()) {
      const next = thenSend ? await markInTransaction(ctx, thenSend, true) : null;
      results.push({ serverId: serverIds[i], next });
    }
    return results;
  });
}

async function storeAcknowledgement(
  ctx: SyncContext,
  entry: OutboxEntry,
  body: unknown,
): Promise<number | null> {
  const { db } = ctx;
  const server = isRecordBody(body) ? body : null;
  await db.outbox.delete(entry.id);
  const table = recordTable(db, entry.entity);
  if (entry.op === 'delete') {
    await table.delete(entry.localId);
    return null;
  }
  // The record is not read first: it is changed by key below, and that change says whether it
  // is still on the tablet (reading a whole record on every acknowledgement was a request and
  // a copy of its rows for nothing).
  const others = (await db.outbox.where('localId').equals(entry.localId).toArray()).filter(
    (e) => e.entity === entry.entity,
  );
  const changes: Partial<AnyRecordRow> = { problem: null };
  if (server) {
    changes.server = server;
    changes.baseUpdated = typeof server.updated === 'string' ? server.updated : null;
  }
  if (entry.op === 'create' && server) {
    changes.serverId = server.id as number;
    await absorbDuplicate(ctx, entry, server.id as number);
  }
  changes.syncState =
    others.length === 0 ? 'synced' : others.some((e) => e.state === 'parked') ? 'failed' : 'queued';
  if ((await changeRow(table, entry.localId, changes)) === 0) return null;
  if (server) await rebaseLaterUpdates(ctx, entry, others, server);
  return changes.serverId ?? null;
}

/**
 * A pull may have stored the server's copy of a record whose create was applied but not yet
 * acknowledged here (the answer was lost). Keep the local row (its localId is what children and
 * entries refer to), drop the pulled copy and move its children over, with the creates that name
 * the copy as their parent: a child saved under the copy in that window would otherwise park as
 * "no longer exists on this tablet". Nothing is moved if the local row is gone too.
 */
async function absorbDuplicate(ctx: SyncContext, entry: OutboxEntry, serverId: number) {
  const table = recordTable(ctx.db, entry.entity);
  const localId = entry.localId;
  const duplicate = await table.where('serverId').equals(serverId).first();
  if (!duplicate || duplicate.localId === localId) return;
  if (!(await table.get(localId))) return;
  await table.delete(duplicate.localId);
  const child = CHILD_ENTITY[entry.entity];
  if (child) {
    await recordTable(ctx.db, child)
      .where('parentLocalId')
      .equals(duplicate.localId)
      .modify({ parentLocalId: localId });
  }
  await ctx.db.outbox
    .filter((e) => e.refs.some((r) => r.localId === duplicate.localId))
    .modify((e) => {
      e.refs = e.refs.map((r) => (r.localId === duplicate.localId ? { ...r, localId } : r));
    });
}

/**
 * Later edits of the record were based on what the tablet knew before this acknowledgement.
 * Rebase them on the server's answer so the record's own change is never taken for someone
 * else's (a false conflict): an edit made before the create was acknowledged has no base yet; a
 * field this entry just wrote is now based on the written value. Fields only the later edit
 * touches keep their base, so a change by someone else to them is still detected.
 */
async function rebaseLaterUpdates(
  ctx: SyncContext,
  entry: OutboxEntry,
  others: OutboxEntry[],
  server: Record<string, unknown>,
) {
  const updated = typeof server.updated === 'string' ? server.updated : null;
  for (const later of others) {
    if (later.op !== 'update' || later.frozen) continue;
    const baseValues = { ...(later.baseValues ?? {}) };
    let baseUpdated = later.baseUpdated;
    if (later.baseUpdated === null) {
      baseUpdated = updated;
      for (const field of Object.keys(later.payload))
        baseValues[field] = normalizeValue(server[field]);
    } else if (entry.op === 'update') {
      for (const field of Object.keys(later.payload)) {
        if (field in entry.payload)
          baseValues[field] = normalizeValue(server[field] ?? entry.payload[field]);
      }
    } else continue;
    await ctx.db.outbox.update(later.id, { baseUpdated, baseValues });
  }
}

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
    await recordTable(db, entry.entity).update(entry.localId, { problem, syncState: 'failed' });
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
    if (!(await db.outbox.get(entry.id))) return;
    await db.outbox.update(entry.id, {
      state: 'conflict',
      lastError: error.toOutboxError(ctx.now()),
    });
    await recordTable(db, entry.entity).update(entry.localId, {
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

/**
 * Changes some fields of one row (see the top of this file for why not `update`). Returns the
 * number of rows changed: 0 when there is no row of that key.
 */
function changeRow<T, K extends string>(
  table: Table<T, K>,
  key: K,
  changes: Partial<T>,
): Promise<number> {
  return table.bulkUpdate([{ key, changes: changes as UpdateSpec<T> }]);
}

function isRecordBody(body: unknown): body is Record<string, unknown> & { id: number } {
  return (
    typeof body === 'object' && body !== null && typeof (body as { id?: unknown }).id === 'number'
  );
}
