import type { Table, UpdateSpec } from 'dexie';
import type { Entity, OutboxEntry, SyncState } from '#shared';
import { backoffDelay } from './backoff';
import { normalizeValue } from '../db/field-values';
import { indexFields } from '../db/record-tables';
import { CHILD_ENTITY } from '#shared/entities';
import { allSyncTables, recordTable, type AnyRecordRow } from './record-tables';
import { isStuck, older } from './outbox-graph';
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
function keyMayHaveReached(entry: OutboxEntry): OutboxEntry {
  if (entry.op !== 'create' || entry.keySentAt != null) return entry;
  // An entry a version without these times tried has only its save time, which no send precedes.
  return { ...entry, keySentAt: entry.sendingAt ?? entry.createdAt };
}

/** Tried (attempts counted) by a version of the app that kept no send times. */
const triedWithoutTimes = (e: OutboxEntry) => e.sendingAt == null && e.attempts > 0;

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

export type Acknowledged = {
  /** The serverId a create stored on its record; null for other steps or a record no longer here. */
  serverId: number | null;
  /** The entry named in `thenSend`, marked as being sent and frozen; null if it is not sendable. */
  next: OutboxEntry | null;
  /**
   * Entries this acknowledgement moved to another record (a pulled copy's, folded into the
   * record by absorbDuplicate), with the localId they now have: the drain must see them as that
   * record's, and send none of its entries beside one of them in flight.
   */
  moved: Moved[];
};

/** An entry moved to the record of `localId`. */
export type Moved = { id: string; localId: string };

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
    const moved: Moved[][] = [];
    for (const { entry, body } of requests) {
      const movedHere: Moved[] = [];
      serverIds.push(await storeAcknowledgement(ctx, entry, body, movedHere));
      moved.push(movedHere);
    }
    // Marked after every member is stored: a member's acknowledgement may move a released
    // child's reference (absorbDuplicate), and the child is sent as its mark reads it.
    const results: Acknowledged[] = [];
    for (const [i, { thenSend }] of requests.entries()) {
      const next = thenSend ? await markInTransaction(ctx, thenSend, true) : null;
      results.push({ serverId: serverIds[i], next, moved: moved[i] });
    }
    return results;
  });
}

async function storeAcknowledgement(
  ctx: SyncContext,
  entry: OutboxEntry,
  body: unknown,
  moved: Moved[],
): Promise<number | null> {
  if (entry.op === 'delete') {
    await storeDeleted(ctx, entry);
    return null;
  }
  const server = isRecordBody(body) ? body : null;
  await ctx.db.outbox.delete(entry.id);
  const stored = await storeOnRecord(ctx, entry, server, moved);
  if (stored !== 'no row') return stored;
  // An update whose row is gone: the create of its record was acknowledged while it was sent,
  // and folded this row, a pulled copy, into the create's own (absorbDuplicate), moving the
  // entry there. Its answer belongs to the row now holding the record's serverId. A create whose
  // row is gone, or a record no longer on the tablet, has nowhere else to go.
  if (entry.op !== 'update' || !server) return null;
  const holder = await recordTable(ctx.db, entry.entity)
    .where('serverId')
    .equals(server.id)
    .first();
  if (!holder) return null;
  await storeOnRecord(ctx, { ...entry, localId: holder.localId }, server, moved);
  return null;
}

/**
 * Stores a create's or an update's answer on the entry's record (the entry already left the
 * outbox). Returns the serverId a create stored, null otherwise, or 'no row' when no record of
 * that localId is here.
 */
async function storeOnRecord(
  ctx: SyncContext,
  entry: OutboxEntry,
  server: (Record<string, unknown> & { id: number }) | null,
  moved: Moved[],
): Promise<number | null | 'no row'> {
  const { db } = ctx;
  const table = recordTable(db, entry.entity);
  // The record is not read first: it is changed by key below, and that change says whether it
  // is still on the tablet (reading a whole record on every acknowledgement was a request and
  // a copy of its rows for nothing).
  const own = await entriesOfRecord(ctx, entry.entity, entry.localId);
  const changes: Partial<AnyRecordRow> = { problem: null };
  if (server) {
    changes.server = server;
    changes.baseUpdated = typeof server.updated === 'string' ? server.updated : null;
  }
  let entries = own;
  if (entry.op === 'create' && server) {
    changes.serverId = server.id;
    const absorbed = await absorbDuplicate(ctx, entry, server.id, own, moved);
    if (absorbed === 'record deleted') {
      // The copy's delete was acknowledged and nothing of the record is left to send: the
      // record is gone from the server, and leaves the tablet as that acknowledgement would
      // have taken it.
      await table.delete(entry.localId);
      return null;
    }
    if (absorbed) {
      Object.assign(changes, absorbed.changes);
      entries = absorbed.entries;
    }
  }
  changes.syncState = syncStateOf(entries);
  if ((await changeRow(table, entry.localId, changes)) === 0) return 'no row';
  // Only the record's own later edits: a folded copy's edits were based on the server's
  // record as the copy held it, not on this answer.
  if (server) await rebaseLaterUpdates(ctx, entry, own, server);
  return changes.serverId ?? null;
}

/**
 * A delete acknowledged: the record leaves the tablet. Unless a create of the same kind may still
 * be acknowledged under its key (a request with it may have reached the server, and its answer
 * has not come back): the deleted record may be that create's own, pulled as a copy
 * (absorbDuplicate), and the create's late answer, replayed by the server, would then store as
 * synced a record the server no longer has. The row is kept instead as a tombstone (deleted,
 * nothing to send), which that acknowledgement finds by the serverId and folds in.
 * Such a create is older than this delete (it was sent before the copy was pulled, and the copy
 * before it was deleted): one ranged read of the entries up to this one finds it, and finds this
 * entry as stored, on the row an acknowledgement may have moved it to while it was sent.
 */
async function storeDeleted(ctx: SyncContext, entry: OutboxEntry): Promise<void> {
  const { db } = ctx;
  const upTo = await db.outbox.where('createdAt').belowOrEqual(entry.createdAt).toArray();
  await db.outbox.delete(entry.id);
  const localId = upTo.find((e) => e.id === entry.id)?.localId ?? entry.localId;
  const table = recordTable(db, entry.entity);
  if (upTo.some((e) => e.entity === entry.entity && mayStillBeAcknowledged(e))) {
    await changeRow(table, localId, { deleted: true, syncState: 'synced', problem: null });
  } else {
    await table.delete(localId);
  }
}

/**
 * Whether a create may yet be acknowledged with a record that an earlier request with its key made,
 * and a pull then stored: a request that got no answer set keySentAt (or, stored by a version that
 * kept no times, it was tried: sendingAt unset, attempts counted). A create being sent by this
 * drain without keySentAt has no such record (a pull never runs beside a drain), and one left
 * marked by an app that died mid-request gets keySentAt when this drain marks it, which is before
 * any younger entry is sent. A parked create is sent again only under a new key.
 */
function mayStillBeAcknowledged(e: OutboxEntry): boolean {
  if (e.op !== 'create' || e.state === 'parked') return false;
  return e.keySentAt != null || triedWithoutTimes(e);
}

/** What the kept row takes from the pulled copy it absorbs, and the entries it then has. */
type Absorbed = { changes: Partial<AnyRecordRow>; entries: OutboxEntry[] };

/**
 * A pull may have stored the server's copy of a record whose create was applied but not yet
 * acknowledged here (the answer was lost), and the technician may have worked on that copy
 * meanwhile. Keep the local row (its localId is what children and entries refer to) and fold the
 * copy into it: the copy's row goes; its children, the entries referring to it, and its own
 * entries (edits, a delete) move to the kept row, unchanged otherwise (their ids, so every
 * dependsOn naming them still holds, and their createdAt, so the record's entries go out in the
 * order they were saved). The kept row shows what the technician saved on either row
 * (foldedChanges). Nothing is moved if the local row is gone too.
 * Returns 'record deleted' when the copy's delete was already acknowledged (a tombstone, see
 * storeDeleted) and the kept row has nothing left to send; null when there is no copy.
 */
async function absorbDuplicate(
  ctx: SyncContext,
  entry: OutboxEntry,
  serverId: number,
  own: OutboxEntry[],
  moved: Moved[],
): Promise<Absorbed | 'record deleted' | null> {
  const table = recordTable(ctx.db, entry.entity);
  const localId = entry.localId;
  const copy = await table.where('serverId').equals(serverId).first();
  if (!copy || copy.localId === localId) return null;
  const kept = await table.get(localId);
  if (!kept) return null;
  const copied = await entriesOfRecord(ctx, entry.entity, copy.localId);
  await table.delete(copy.localId);
  await moveChildren(ctx, entry.entity, copy.localId, localId);
  await moveDrafts(ctx, copy.localId, localId);
  for (const e of copied) {
    await ctx.db.outbox.put({ ...e, localId });
    moved.push({ id: e.id, localId });
  }
  // A deleted copy with nothing left to send: its delete was acknowledged (storeDeleted).
  if (copy.deleted && copied.length === 0) {
    return own.length === 0 ? 'record deleted' : { changes: { deleted: true }, entries: own };
  }
  const entries = [...own, ...copied.map((e) => ({ ...e, localId }))].sort(older);
  return { changes: foldedChanges(entry.entity, kept, copy, copied, entries), entries };
}

/**
 * Drafts of what the technician typed on the copy (its edit form, a new child's form under it) are
 * typing on this record: they follow it to the kept row, as its children and entries do, else the
 * copy's localId in their keys (`draft:<form>:<record>:<parent>`, ui/form/use-form-draft.ts)
 * would never open again and the typing would be lost. Where the kept row has a draft of its own
 * under the same key, the newer one is kept.
 */
async function moveDrafts(ctx: SyncContext, from: string, to: string): Promise<void> {
  const { meta } = ctx.db;
  const drafts = await meta
    .where('key')
    .startsWith('draft:')
    .filter((row) => row.key.split(':').includes(from))
    .toArray();
  const savedAt = (value: unknown) => (value as { savedAt?: unknown } | null)?.savedAt;
  for (const draft of drafts) {
    const key = draft.key
      .split(':')
      .map((part) => (part === from ? to : part))
      .join(':');
    const there = await meta.get(key);
    const newer = Number(savedAt(draft.value) ?? 0) >= Number(savedAt(there?.value) ?? 0);
    if (!there || newer) await meta.put({ key, value: draft.value });
    await meta.delete(draft.key);
  }
}

/**
 * The kept row's fields once a live copy is folded in (absorbDuplicate):
 * - data: the copy's (the server's record as pulled, newer than this create's answer, with the
 *   copy's own edits), then every edit still to send of either row, oldest first: each field
 *   shows the value saved last, as the server will hold it once they are sent;
 * - server and baseUpdated: the copy's, the newer of the two versions the tablet has seen (an
 *   edit of the copy already sent is in it), so a later edit is not based on an older version;
 * - deleted, and the copy's problem while one of its entries waits on the technician.
 */
function foldedChanges(
  entity: Entity,
  kept: AnyRecordRow,
  copy: AnyRecordRow,
  copied: OutboxEntry[],
  entries: OutboxEntry[],
): Partial<AnyRecordRow> {
  const data = { ...copy.data };
  for (const e of entries) if (e.op === 'update') Object.assign(data, e.payload);
  const changes: Partial<AnyRecordRow> & Record<string, unknown> = {
    data,
    ...indexFields(entity, data),
    server: copy.server,
    baseUpdated: copy.baseUpdated,
    updatedAt: Math.max(kept.updatedAt, copy.updatedAt),
  };
  if (copy.deleted) changes.deleted = true;
  if (copied.some(isStuck)) changes.problem = copy.problem;
  return changes;
}

/** Moves the children of a folded copy, and every entry referring to it, to the kept row. */
async function moveChildren(ctx: SyncContext, entity: Entity, from: string, to: string) {
  const child = CHILD_ENTITY[entity];
  if (child) {
    await recordTable(ctx.db, child).where('parentLocalId').equals(from).modify({
      parentLocalId: to,
    });
  }
  await ctx.db.outbox
    .filter((e) => e.refs.some((r) => r.localId === from))
    .modify((e) => {
      e.refs = e.refs.map((r) => (r.localId === from ? { ...r, localId: to } : r));
    });
}

/** A record's entries still in the outbox. */
async function entriesOfRecord(
  ctx: SyncContext,
  entity: Entity,
  localId: string,
): Promise<OutboxEntry[]> {
  const entries = await ctx.db.outbox.where('localId').equals(localId).toArray();
  return entries.filter((e) => e.entity === entity);
}

/** A record's syncState from its entries still in the outbox. */
function syncStateOf(entries: OutboxEntry[]): SyncState {
  if (entries.length === 0) return 'synced';
  if (entries.some((e) => e.state === 'parked')) return 'failed';
  if (entries.some((e) => e.state === 'conflict')) return 'conflict';
  return 'queued';
}

/**
 * Later edits of the record were based on what the tablet knew before this acknowledgement.
 * Rebase them on the server's answer so the record's own change is never taken for someone
 * else's (a false conflict): an edit made before the create was acknowledged has no base yet; a
 * field this entry just wrote is now based on the written value. Fields only the later edit
 * touches keep their base, so a change by someone else to them is still detected.
 * Only edits saved after this entry: an older one still waiting (a pulled copy's edit folded in
 * while it was sent, see absorbDuplicate) was overtaken by this later save, so it keeps its base,
 * and sent after it, it shows the technician a conflict instead of overwriting the later value.
 */
async function rebaseLaterUpdates(
  ctx: SyncContext,
  entry: OutboxEntry,
  others: OutboxEntry[],
  server: Record<string, unknown>,
) {
  const updated = typeof server.updated === 'string' ? server.updated : null;
  for (const later of others) {
    if (later.op !== 'update' || later.frozen || older(later, entry) < 0) continue;
    const baseValues = { ...(later.baseValues ?? {}) };
    let baseUpdated = later.baseUpdated;
    // No base yet: an edit saved before the record's create was acknowledged (no server version
    // existed). Only a create's answer gives it one. An edit with no `updated` after an update's
    // answer is based on what its form opened with (updateRecord: a field changed underneath),
    // and its base values are the values the technician typed over: replaced by this answer, the
    // office's change of that field would be taken for the base and overwritten with no question.
    if (later.baseUpdated === null && entry.op === 'create') {
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
