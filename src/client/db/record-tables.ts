import type { Table } from 'dexie';
import type { Entity, OutboxEntry } from '#shared';
import { ENTITY_TABLE, type LocalRecord, type TraplineDb } from './database';

export type AnyRow = LocalRecord<Record<string, unknown>, unknown> & Record<string, unknown>;

/** The Dexie table of an entity, typed loosely for the generic record writes. */
export function tableOf(db: TraplineDb, entity: Entity): Table<AnyRow, string> {
  return db.table(ENTITY_TABLE[entity]);
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

/** Indexed copies of data fields kept on the row (site code and name, collection date). */
export function indexFields(
  entity: Entity,
  data: Record<string, unknown>,
): Record<string, unknown> {
  if (entity === 'site') return { code: String(data.code ?? ''), name: String(data.name ?? '') };
  if (entity === 'collection') return { collectionDate: String(data.collection_date ?? '') };
  return {};
}
