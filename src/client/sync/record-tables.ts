import { ENTITY_TABLE, type TraplineDb } from '../db/database';
import type { Entity, SyncState } from '#shared';
import type { Table } from 'dexie';

/** A record row as the engine handles it, whatever its entity. */
export type AnyRecordRow = {
  localId: string;
  serverId: number | null;
  syncState: SyncState;
  data: Record<string, unknown>;
  server: Record<string, unknown> | null;
  baseUpdated: string | null;
  parentLocalId: string | null;
  updatedAt: number;
  problem: { code: string; message: string; fields?: { path: string; message: string }[] } | null;
  deleted?: boolean;
};

/** The Dexie table holding an entity's records, typed loosely enough to share code across them. */
export function recordTable(db: TraplineDb, entity: Entity): Table<AnyRecordRow, string> {
  return db[ENTITY_TABLE[entity]] as unknown as Table<AnyRecordRow, string>;
}

/** Every record table plus the outbox: the scope of a transaction that may touch any of them. */
export function allSyncTables(db: TraplineDb) {
  return [db.sites, db.collections, db.pools, db.poolTests, db.outbox, db.meta];
}
