import { ENTITY_TABLE, PARENT_FIELD, TraplineDb } from '../../../../src/client/db/database';
import type { Entity, OutboxEntry } from '../../../../src/shared';

let dbCounter = 0;

/** A fresh per-test Dexie database on fake-indexeddb. */
export function makeDb(): TraplineDb {
  dbCounter += 1;
  return new TraplineDb(`trapline-test-${dbCounter}-${Math.random().toString(36).slice(2)}`);
}

let clock = 1_000;

/**
 * Writes a new record and its create entry as the repositories do (outbox rules): payload
 * without the parent field, the parent named in refs, dependsOn = the parent's entries still queued.
 */
export async function queueCreate(
  db: TraplineDb,
  entity: Entity,
  data: Record<string, unknown>,
  parentLocalId: string | null = null,
  extraDependsOn: string[] = [],
): Promise<{ localId: string; entryId: string }> {
  const parent = PARENT_FIELD[entity];
  const localId = crypto.randomUUID();
  const entryId = crypto.randomUUID();
  const table = db.table(ENTITY_TABLE[entity]);
  await db.transaction('rw', table, db.outbox, async () => {
    const parentEntries = parentLocalId
      ? (await db.outbox.where('localId').equals(parentLocalId).toArray()).map((e) => e.id)
      : [];
    await table.add({
      localId,
      serverId: null,
      syncState: 'queued',
      data,
      server: null,
      baseUpdated: null,
      parentLocalId,
      updatedAt: clock,
      problem: null,
      ...(entity === 'site'
        ? { code: String(data.code ?? ''), name: String(data.name ?? '') }
        : {}),
      ...(entity === 'collection' ? { collectionDate: String(data.collection_date ?? '') } : {}),
    });
    const entry: OutboxEntry = {
      id: entryId,
      entity,
      localId,
      op: 'create',
      payload: data,
      refs:
        parent && parentLocalId
          ? [{ field: parent.field, entity: parent.entity, localId: parentLocalId }]
          : [],
      dependsOn: [...new Set([...parentEntries, ...extraDependsOn])],
      baseUpdated: null,
      baseValues: null,
      state: 'pending',
      frozen: false,
      attempts: 0,
      nextAttemptAt: 0,
      lastError: null,
      createdAt: clock++,
      ownerKey: db.name,
    };
    await db.outbox.add(entry);
  });
  return { localId, entryId };
}

/** Stores a record the server already has (as a pull would). */
export async function storeSynced(
  db: TraplineDb,
  entity: Entity,
  server: Record<string, unknown> & { id: number; updated: string },
  data: Record<string, unknown>,
  parentLocalId: string | null = null,
): Promise<string> {
  const localId = crypto.randomUUID();
  await db.table(ENTITY_TABLE[entity]).add({
    localId,
    serverId: server.id,
    syncState: 'synced',
    data,
    server: { ...server },
    baseUpdated: server.updated,
    parentLocalId,
    updatedAt: clock++,
    problem: null,
    ...(entity === 'site' ? { code: String(data.code ?? ''), name: String(data.name ?? '') } : {}),
    ...(entity === 'collection' ? { collectionDate: String(data.collection_date ?? '') } : {}),
  });
  return localId;
}

/** Queues an edit of a synced record as the repositories do: only the changed fields, with their base. */
export async function queueUpdate(
  db: TraplineDb,
  entity: Entity,
  localId: string,
  changes: Record<string, unknown>,
): Promise<string> {
  const table = db.table(ENTITY_TABLE[entity]);
  const entryId = crypto.randomUUID();
  await db.transaction('rw', table, db.outbox, async () => {
    const row = await table.get(localId);
    const others = (await db.outbox.where('localId').equals(localId).toArray()).map((e) => e.id);
    const server = (row.server ?? null) as Record<string, unknown> | null;
    await table.update(localId, { data: { ...row.data, ...changes }, syncState: 'queued' });
    await db.outbox.add({
      id: entryId,
      entity,
      localId,
      op: 'update',
      payload: changes,
      refs: [],
      dependsOn: others,
      baseUpdated: (server?.updated as string | undefined) ?? null,
      baseValues: Object.fromEntries(Object.keys(changes).map((k) => [k, server?.[k] ?? null])),
      state: 'pending',
      frozen: false,
      attempts: 0,
      nextAttemptAt: 0,
      lastError: null,
      createdAt: clock++,
      ownerKey: db.name,
    });
  });
  return entryId;
}

export const site = (n: number) => ({
  code: String(100000 + n),
  name: `Site ${n}`,
  coordinate_precision: 1,
  shape: { type: 'Point', coordinates: [-121.49, 38.58] },
});
export const collection = (date = '2026-07-14') => ({
  collection_date: date,
  num_trap: 1,
  trap: 2,
  trap_nights: 1,
});
export const pool = () => ({ num_count: 10, species: 1, sex: 1 });
export const poolTest = () => ({
  method: 1,
  target: 1,
  status: 1,
  test_date: '2026-07-20',
  test_agency: 1,
});
