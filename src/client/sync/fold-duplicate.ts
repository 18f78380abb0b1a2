import type { Entity, OutboxEntry } from '#shared';
import { CHILD_ENTITY } from '#shared/entities';
import { indexFields } from '../db/record-tables';
import { moveDrafts } from '../lib/drafts/move-drafts';
import { isStuck, older } from './outbox-graph';
import { recordTable, type AnyRecordRow } from '../db/record-tables';
import type { SyncContext } from './sync-context';

/** An entry moved to the record of `localId`. */
export type Moved = { id: string; localId: string };

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
export async function absorbDuplicate(
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
  await moveDrafts(ctx.db.meta, copy.localId, localId);
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
export async function entriesOfRecord(
  ctx: SyncContext,
  entity: Entity,
  localId: string,
): Promise<OutboxEntry[]> {
  const entries = await ctx.db.outbox.where('localId').equals(localId).toArray();
  return entries.filter((e) => e.entity === entity);
}
