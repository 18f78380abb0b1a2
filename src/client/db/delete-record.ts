import type { Entity } from '../../shared';
import type { TraplineDb } from './database';
import { CHILD_ENTITY } from '#shared/entities';
import { newEntry } from './new-entry';
import { entriesOf, tableOf } from './record-tables';
import { RepositoryError } from './repository-error';

function childLabel(row: {
  localId: string;
  data: Record<string, unknown>;
  code?: unknown;
  collectionDate?: unknown;
}): string {
  if (typeof row.code === 'string') return `site ${row.code}`;
  if (typeof row.collectionDate === 'string')
    return `collection of ${row.collectionDate.slice(0, 10)}`;
  const d = row.data;
  if (typeof d.num_count === 'number') return `pool of ${d.num_count}`;
  if (typeof d.test_date === 'string') return `test of ${d.test_date.slice(0, 10)}`;
  return row.localId;
}

/**
 * Deletes a record, in ONE transaction over the record table, its children's table and the outbox:
 * - never sent (its create is still queued, not frozen, or was refused): the record and all its
 *   entries are removed, unless unsynced children still point at it (refused, listing them);
 * - known to the server (or being sent): a `delete` entry after the record's other entries; the
 *   record stays, marked deleted, until the server acknowledges.
 * Returns 'removed' or 'queued'.
 */
export async function deleteRecord(
  db: TraplineDb,
  entity: Entity,
  localId: string,
): Promise<'removed' | 'queued'> {
  const table = tableOf(db, entity);
  const childEntity = CHILD_ENTITY[entity];
  const tables = childEntity ? [table, tableOf(db, childEntity), db.outbox] : [table, db.outbox];
  return db.transaction('rw', tables, async () => {
    const row = await table.get(localId);
    if (!row) throw new RepositoryError('not_found', `This ${entity} is no longer on this tablet`);
    if (row.deleted) return 'queued';
    const entries = await entriesOf(db, localId);
    const create = entries.find((e) => e.op === 'create');
    const neverSent =
      row.serverId === null &&
      create !== undefined &&
      (!create.frozen || create.state === 'parked');
    if (neverSent) {
      const children = childEntity
        ? (await tableOf(db, childEntity).where('parentLocalId').equals(localId).toArray()).filter(
            (c) => !c.deleted,
          )
        : [];
      if (children.length > 0) {
        const listed = children.map((c) => ({
          entity: childEntity as string,
          localId: c.localId,
          label: childLabel(c),
        }));
        throw new RepositoryError(
          'has_children',
          `Delete these first, they are not sent yet and belong to it: ${listed.map((c) => c.label).join(', ')}`,
          [],
          listed,
        );
      }
      await db.outbox.bulkDelete(entries.map((e) => e.id));
      await table.delete(localId);
      return 'removed';
    }
    await db.outbox.add(
      newEntry(db, {
        entity,
        localId,
        op: 'delete',
        payload: {},
        dependsOn: entries.map((e) => e.id),
        baseUpdated: row.baseUpdated,
      }),
    );
    await table.update(localId, { deleted: true, syncState: 'queued', updatedAt: Date.now() });
    return 'queued';
  });
}
