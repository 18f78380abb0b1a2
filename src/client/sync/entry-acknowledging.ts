import type { Table } from 'dexie';
import type { OutboxEntry, SyncState } from '#shared';
import { normalizeValue } from '../db/field-values';
import { changeRow } from './change-row';
import { markInTransaction, triedWithoutTimes } from './entry-sending';
import { absorbDuplicate, entriesOfRecord, type Moved } from './fold-duplicate';
import { older } from './outbox-graph';
import { allSyncTables, recordTable, type AnyRecordRow } from '../db/record-tables';
import type { SyncContext } from './sync-context';

/**
 * The server took an entry: what it answered is stored on the record and the entry leaves the
 * outbox, in ONE transaction over the record tables and the outbox, so a record's state and its
 * entries never disagree, whatever crashes in between.
 * Invariants, and what each costs an acknowledged create of a queue of chains (six IndexedDB
 * requests, issue 40):
 * - the entry is deleted (its key with it) only in the transaction that stores its answer: a
 *   crash before the commit leaves the entry and its key, and the retry gets the server's replay
 *   (1 request);
 * - the record's other entries are read in that transaction, not taken from the drain's view:
 *   another tab may have saved an edit of the record since, which keeps it 'queued' and is
 *   rebased on this answer (1);
 * - the record is read and written in that transaction (changeRow), so another tab's edit of it
 *   since the drain read the outbox is kept, never overwritten by a stale copy (2);
 * - the child the answer releases is read and marked in it (markInTransaction): a repository
 *   may have edited its payload in place since, and the mark freezes what is sent (2);
 * - a pulled copy of the record is looked for only when a request with the key may have reached
 *   the server before (mayHavePulledCopy), the only way a copy can exist.
 */

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
  return db.transaction('rw', ackScope(ctx, requests), async () => {
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

/**
 * The tables an acknowledgement may write, and no more: a read-write transaction holds back every
 * reader of its tables (the screens' live queries) until it commits, and tells each of them to
 * read again. A create, update or delete writes its own record table and the outbox (the entry,
 * its record's later edits, the child it marks); only a fold of a pulled copy (absorbDuplicate)
 * moves children to other tables and drafts in meta.
 */
function ackScope(ctx: SyncContext, requests: readonly AckRequest[]): Table[] {
  const { db } = ctx;
  if (requests.some(({ entry }) => entry.op === 'create' && mayHavePulledCopy(entry)))
    return allSyncTables(db);
  return [...new Set(requests.map(({ entry }) => recordTable(db, entry.entity))), db.outbox];
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
    const absorbed = mayHavePulledCopy(entry)
      ? await absorbDuplicate(ctx, entry, server.id, own, moved)
      : null;
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

/**
 * Whether a pull may have stored the server's copy of this create's record (absorbDuplicate looks
 * for it by the answer's serverId): only if a request with its key may have reached the server
 * before this send, and then only keySentAt says so. The entry is the one acknowledged, as its
 * mark for this send stored it: the mark sets keySentAt on an entry left 'sending' by an app that
 * died mid-request or tried by a version that kept no times (markInTransaction), and every
 * transient failure since its first send set it (retryLater). Without it, this send is the
 * key's first to reach the server, its record did not exist before it, and no pull has run since
 * (a pull never runs beside a drain): there is no copy, and looking for one was a request per
 * acknowledged create for nothing.
 */
function mayHavePulledCopy(entry: OutboxEntry): boolean {
  return entry.keySentAt != null;
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

function isRecordBody(body: unknown): body is Record<string, unknown> & { id: number } {
  return (
    typeof body === 'object' && body !== null && typeof (body as { id?: unknown }).id === 'number'
  );
}
