import type { Table } from 'dexie';
import type { OutboxEntry } from '#shared';
import { ENTITIES, ENTITY, type Entity } from '#shared/entities';
import type { LocalRecord, TraplineDb } from './database';

/**
 * A record row whatever its entity, typed loosely enough to share code across them: the fields
 * every record table has, plus an entity's own indexed copies (a site's code and name, a
 * collection's date: ENTITY[e].localIndexes, written by indexFields).
 */
export type AnyRecordRow = LocalRecord<Record<string, unknown>, Record<string, unknown>> &
  Record<string, unknown>;

/** The Dexie table holding an entity's records (ENTITY[e].table). */
export function recordTable(db: TraplineDb, entity: Entity): Table<AnyRecordRow, string> {
  return db.table(ENTITY[entity].table);
}

/** Every record table plus the outbox and meta: the scope of a transaction that may touch any. */
export function allSyncTables(db: TraplineDb): Table[] {
  return [...ENTITIES.map((e) => db.table(ENTITY[e].table)), db.outbox, db.meta];
}

/** Outbox entries of one record still in the outbox, oldest first. */
export async function entriesOf(db: TraplineDb, localId: string): Promise<OutboxEntry[]> {
  const rows = await db.outbox.where('localId').equals(localId).toArray();
  return rows.sort((a, b) => a.createdAt - b.createdAt);
}

/** ownerKey of entries written to this database: the database is already per user. */
export function ownerKeyOf(db: TraplineDb): string {
  return db.name;
}

/** Key-order-independent JSON, so `{a, b}` and `{b, a}` compare equal. */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)),
        )
      : v,
  );
}

/** Data without undefined values (IndexedDB keeps them as absent anyway; diffs must agree). */
export function compact(data: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(data).filter(([, v]) => v !== undefined));
}

/** Indexed copies of data fields kept on the row (ENTITY[e].localIndexes), '' when absent. */
export function indexFields(
  entity: Entity,
  data: Record<string, unknown>,
): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(ENTITY[entity].localIndexes).map(([row, field]) => [
      row,
      String(data[field] ?? ''),
    ]),
  );
}
