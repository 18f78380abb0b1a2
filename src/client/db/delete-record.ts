import type { Entity, OutboxEntry } from '#shared';
import type { TraplineDb } from './database';
import { CHILD_ENTITY } from '#shared/entities';
import { loadIdentity } from '../lib/identity';
import { newEntry } from './new-entry';
import { entriesOf, recordTable, type AnyRecordRow } from './record-tables';
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

/** Why a technician is not offered, and refused, the delete of a record the server has. */
export const ONLY_MANAGER_DELETES = 'Only a manager can delete a record that is on the server.';

/**
 * Whether the signed-in user may delete records the server has: only managers delete (contract
 * §7), so a technician's delete would be refused (403) at sync and parked while the record stays.
 * An identity that does not say its role cannot tell: allowed, as before. Records never sent
 * (a local discard) anyone may delete.
 */
export function mayDeleteSynced(): boolean {
  return loadIdentity()?.user.role !== 'technician';
}

/**
 * Whether a record never left the tablet: no serverId, and its create still queued and never
 * tried, or refused. Its delete is a local discard, anyone's; any other delete is the server's,
 * and a manager's (a create once tried may be on the server although its answer never came).
 */
export function neverSent(row: { serverId: number | null }, entries: OutboxEntry[]): boolean {
  const create = entries.find((e) => e.op === 'create');
  return (
    row.serverId === null && create !== undefined && (!create.frozen || create.state === 'parked')
  );
}

type Descendant = AnyRecordRow & { entity: Entity };

/** The entities under `entity`, nearest first (a collection: pool, then poolTest). */
function descendantEntities(entity: Entity): Entity[] {
  const out: Entity[] = [];
  for (let e = CHILD_ENTITY[entity]; e; e = CHILD_ENTITY[e]) out.push(e);
  return out;
}

/** Every record under `localId` on this tablet (children, their children...), deleted ones too. */
async function descendantsOf(db: TraplineDb, entity: Entity, localId: string) {
  const found: Descendant[] = [];
  let parents = [localId];
  for (const child of descendantEntities(entity)) {
    if (parents.length === 0) break;
    const rows = await recordTable(db, child).where('parentLocalId').anyOf(parents).toArray();
    found.push(...rows.map((r) => ({ ...r, entity: child })));
    parents = rows.map((r) => r.localId);
  }
  return found;
}

function refuseForChildren(children: Descendant[]): never {
  const listed = children.map((c) => ({
    entity: c.entity as string,
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

/**
 * Deletes a record, in ONE transaction over the record table, its descendants' tables and the
 * outbox:
 * - never sent (its create is still queued, not frozen, or was refused): the record and all its
 *   entries are removed, unless unsynced children still point at it (refused, listing them);
 * - known to the server (or being sent): a `delete` entry after the record's other entries; the
 *   record stays, marked deleted, until the server acknowledges. Refused, listing them, while a
 *   record under it has a change not yet sent: the server retires a collection's pools with it
 *   and refuses a pool or test under a retired parent, so that change could never be sent.
 *   Deletes of records under it still queued go first (after the cascade they would be refused).
 *   Refused for a technician (only managers delete, contract §7): see mayDeleteSynced.
 * Returns 'removed' or 'queued'.
 */
export async function deleteRecord(
  db: TraplineDb,
  entity: Entity,
  localId: string,
): Promise<'removed' | 'queued'> {
  const table = recordTable(db, entity);
  const tables = [table, ...descendantEntities(entity).map((e) => recordTable(db, e)), db.outbox];
  return db.transaction('rw', tables, async () => {
    const row = await table.get(localId);
    if (!row) throw new RepositoryError('not_found', `This ${entity} is no longer on this tablet`);
    if (row.deleted) return 'queued';
    const entries = await entriesOf(db, localId);
    const descendants = await descendantsOf(db, entity, localId);
    if (neverSent(row, entries)) {
      const children = descendants.filter((c) => c.entity === CHILD_ENTITY[entity] && !c.deleted);
      if (children.length > 0) refuseForChildren(children);
      await db.outbox.bulkDelete(entries.map((e) => e.id));
      await table.delete(localId);
      return 'removed';
    }
    if (!mayDeleteSynced()) throw new RepositoryError('forbidden', ONLY_MANAGER_DELETES);
    const below = descendants.length
      ? await db.outbox
          .where('localId')
          .anyOf(descendants.map((d) => d.localId))
          .toArray()
      : [];
    const withChanges = new Set(below.map((e) => e.localId));
    const unsent = descendants.filter((d) => !d.deleted && withChanges.has(d.localId));
    if (unsent.length > 0) refuseForChildren(unsent);
    await db.outbox.add(
      newEntry(db, {
        entity,
        localId,
        op: 'delete',
        payload: {},
        dependsOn: [...entries, ...below].map((e) => e.id),
        baseUpdated: row.baseUpdated,
      }),
    );
    await table.update(localId, { deleted: true, syncState: 'queued', updatedAt: Date.now() });
    return 'queued';
  });
}
