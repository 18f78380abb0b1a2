import type { Entity } from '#shared';
import { newId } from '../lib/ids';
import { PARENT_FIELD, type TraplineDb } from './database';
import { entryTime } from './entry-time';
import { newEntry } from './new-entry';
import { compact, indexFields, recordTable, type AnyRecordRow } from './record-tables';
import { RepositoryError } from './repository-error';
import { validateRecord } from './validate-record';

export type NewRecord = {
  /** The create payload without the parent field. */
  data: Record<string, unknown>;
  /** localId of the parent (site of a collection, collection of a pool, pool of a test). */
  parentLocalId: string | null;
};

/**
 * Writes new records of one entity and their create entries in ONE transaction (outbox rules):
 * if anything fails, neither a record nor an entry is written. Returns the new localIds.
 *
 * Invariants:
 * - the payload never holds the parent's id: the parent is named in `refs` and resolved to its
 *   serverId at send time, even when the parent is already synced;
 * - `dependsOn` lists the parent's entries still in the outbox, so a child is sent only after
 *   everything about its parent was acknowledged.
 */
export async function createRecords(
  db: TraplineDb,
  entity: Entity,
  items: NewRecord[],
  /**
   * The key of the form draft these records were typed in (use-form-draft's draftKey): deleted in
   * the same transaction, so a tab killed right after the save never offers the saved typing
   * again as unsaved.
   */
  draftKey?: string,
): Promise<string[]> {
  const parent = PARENT_FIELD[entity];
  const prepared = items.map((item) => {
    const data = compact(item.data);
    validateRecord(entity, 'create', data);
    if (parent && !item.parentLocalId) {
      throw new RepositoryError('invalid', `A ${entity} needs its ${parent.field}`, [
        { path: parent.field, message: 'Required' },
      ]);
    }
    return { ...item, data };
  });
  const table = recordTable(db, entity);
  const tables = [
    table,
    ...(parent ? [recordTable(db, parent.entity)] : []),
    db.outbox,
    ...(draftKey ? [db.meta] : []),
  ];
  return db.transaction('rw', tables, async () => {
    const ids: string[] = [];
    const parentDeps = new Map<string, string[]>();
    for (const [index, item] of prepared.entries()) {
      if (parent && item.parentLocalId && !parentDeps.has(item.parentLocalId)) {
        // Both reads at once: the parent must still be here, and its entries still queued are
        // what this child waits on (a set: only their ids are needed, not the entries).
        const [parentRow, parentEntryIds] = await Promise.all([
          recordTable(db, parent.entity).get(item.parentLocalId),
          db.outbox.where('localId').equals(item.parentLocalId).primaryKeys(),
        ]);
        if (!parentRow || parentRow.deleted) {
          throw new RepositoryError(
            'not_found',
            `The ${parent.entity} of this ${entity} is no longer on this tablet`,
          );
        }
        parentDeps.set(item.parentLocalId, parentEntryIds);
      }
      const localId = newId();
      const now = Date.now();
      // The page's strictly rising clock: two saves in one millisecond (a same-day re-test
      // saved right after the first) are still told apart by when they were made.
      const madeAt = entryTime();
      const row: AnyRecordRow = {
        localId,
        serverId: null,
        syncState: 'queued',
        data: item.data,
        server: null,
        baseUpdated: null,
        parentLocalId: item.parentLocalId,
        updatedAt: now,
        // Within one save (several pools), the order they were given in.
        createdAt: madeAt + index / prepared.length,
        problem: null,
        ...indexFields(entity, item.data),
      };
      // Record and entry in the same transaction, written together: either both or neither.
      await Promise.all([
        table.add(row),
        db.outbox.add(
          newEntry(db, {
            entity,
            localId,
            op: 'create',
            payload: item.data,
            refs:
              parent && item.parentLocalId
                ? [{ field: parent.field, entity: parent.entity, localId: item.parentLocalId }]
                : [],
            dependsOn: item.parentLocalId ? (parentDeps.get(item.parentLocalId) ?? []) : [],
            createdAt: entryTime(),
          }),
        ),
      ]);
      ids.push(localId);
    }
    if (draftKey) await db.meta.delete(draftKey);
    return ids;
  });
}
