import Dexie, { type EntityTable } from 'dexie';
import {
  ENTITIES,
  ENTITY,
  type Entity,
  type EntityFacts,
  type EntityRegistry,
} from '#shared/entities';
import type {
  Collection,
  LookupsDocument,
  OutboxEntry,
  Pool,
  PoolTest,
  Site,
  SyncState,
} from '#shared';
import { PHOTO_INDEXES, type PhotoRow } from './photo-rows';
import { databaseName } from './database-name';

/**
 * A record as the tablet holds it.
 * - `localId` (client UUID) is the key; `serverId` is set once the server acknowledged the create.
 * - `data` is the record in the create/update request shape, as the user last saved it. Fields
 *   that point at a parent the server may not know yet (site, collection, pool) are NOT in `data`
 *   as IDs while unsynced: the parent is named by `parentLocalId` and resolved at send time.
 * - `server` is the last version the server returned (null until synced / pulled).
 * - `baseUpdated` is the server `updated` the local edits were based on (conflict detection).
 */
export type LocalRecord<TData, TServer> = {
  localId: string;
  serverId: number | null;
  syncState: SyncState;
  data: TData;
  server: TServer | null;
  baseUpdated: string | null;
  /** localId of the parent record (site of a collection, collection of a pool, pool of a test). */
  parentLocalId: string | null;
  /** Local modification time (ms). */
  updatedAt: number;
  /**
   * When the record was made on this tablet (ms; records of one save in their order). Absent on
   * pulled records (their server `add_date` says it) and on those saved by older versions.
   */
  createdAt?: number;
  /** Server message when the record's entry is parked (409/422) or in conflict. */
  problem: { code: string; message: string; fields?: { path: string; message: string }[] } | null;
  /** Soft delete pending or done. */
  deleted?: boolean;
};

export type SiteRow = LocalRecord<Record<string, unknown>, Site> & { code: string; name: string };
export type CollectionRow = LocalRecord<Record<string, unknown>, Collection> & {
  collectionDate: string;
};
export type PoolRow = LocalRecord<Record<string, unknown>, Pool>;
export type PoolTestRow = LocalRecord<Record<string, unknown>, PoolTest>;

export type LookupsRow = {
  key: 'lookups';
  etag: string | null;
  document: LookupsDocument;
  storedAt: number;
};
export type MetaRow = { key: string; value: unknown };

/** Dexie table of each outbox entity (from the entity registry). */
export const ENTITY_TABLE = Object.fromEntries(ENTITIES.map((e) => [e, ENTITY[e].table])) as {
  [E in Entity]: EntityFacts['table'];
};

/** Which field of a child's payload names its parent, by child entity (from the entity registry). */
export const PARENT_FIELD: Partial<Record<Entity, { field: string; entity: Entity }>> =
  Object.fromEntries(ENTITIES.flatMap((e) => (ENTITY[e].parent ? [[e, ENTITY[e].parent]] : [])));

/**
 * The Dexie stores of the record tables of `entities` (the registry, ENTITY): each keyed by
 * localId, its serverId unique, a child's parentLocalId and the entity's localIndexes.
 * Only indexes something queries: each one is written again whenever a row's indexed field
 * changes, and the sync engine changes rows on every send. `updatedAt`: the index versions 2 and
 * 3 had on `updatedAt`, which nothing queried (version 4 dropped it: in a first pull of 20,000
 * sites, one IndexedDB index entry written and checked per row for nothing).
 */
export function recordTableStores(
  entities: EntityRegistry,
  { updatedAt = false }: { updatedAt?: boolean } = {},
): Record<string, string> {
  return Object.fromEntries(
    Object.values(entities).map(({ table, parent, localIndexes }) => [
      table,
      [
        'localId',
        '&serverId',
        ...(parent ? ['parentLocalId'] : []),
        ...Object.keys(localIndexes),
        ...(updatedAt ? ['updatedAt'] : []),
      ].join(', '),
    ]),
  );
}

export class TraplineDb extends Dexie {
  sites!: EntityTable<SiteRow, 'localId'>;
  collections!: EntityTable<CollectionRow, 'localId'>;
  pools!: EntityTable<PoolRow, 'localId'>;
  poolTests!: EntityTable<PoolTestRow, 'localId'>;
  outbox!: EntityTable<OutboxEntry, 'id'>;
  lookups!: EntityTable<LookupsRow, 'key'>;
  meta!: EntityTable<MetaRow, 'key'>;
  photos!: EntityTable<PhotoRow, 'id'>;

  /**
   * Set once another tab opened this database at a higher version (a newer app).
   * From then on this tab's code no longer matches the stored schema: the connection stays
   * closed (no silent reopen by old code) until the page reloads. Nothing stored is lost.
   */
  superseded = false;
  private readonly supersededListeners = new Set<() => void>();
  /**
   * Set once the database was deleted under the app, or the browser closed it and it is gone or
   * cannot be opened: the site's data cleared (the tablet's "clear site data"), or storage lost.
   * What was stored, unsent changes included, may be gone. The connection stays closed: reopened,
   * it would be an empty database made afresh, and the app would go on as if nothing had waited.
   */
  storageLost = false;

  constructor(name: string) {
    // Strict durability: a saved record and its outbox entry survive a crash or power loss.
    super(name, { chromeTransactionDurability: 'strict' });
    // Version 2 dropped the indexes nothing queried (records' syncState; the outbox's entity,
    // state and nextAttemptAt): the sync engine changes a record's syncState and its entry's
    // state on every send, so each was a second write per send for nothing (issue 13). Dexie
    // upgrades any older database to the schema declared here by comparing it with the stored
    // one (no upgrade function, so no older version needs declaring); rows are untouched, only
    // index stores are deleted. schema-upgrade.test.ts opens a version-1 database with it.
    // The record tables come from the registry: a new entity's table is declared here with no
    // version of its own, as Dexie 4 adds a table (or an index) to a database opened at the same
    // version when the declared schema has it and the stored one does not. A change to an
    // existing table's indexes would still be a new version (with its upgrade, if rows change).
    this.version(2).stores({
      ...recordTableStores(ENTITY, { updatedAt: true }),
      outbox: 'id, localId, createdAt',
      lookups: 'key',
      meta: 'key',
    });
    // Version 3 adds the photos of records (contract §13): a new table, nothing else changes,
    // so every stored row is kept as it is (schema-upgrade.test.ts).
    this.version(3).stores({ photos: PHOTO_INDEXES });
    // Version 4 drops the record tables' `updatedAt` index, which nothing queried: a first pull
    // wrote an index entry per row for it. Only the index store is deleted; every row is kept
    // (schema-upgrade.test.ts opens a version-3 database with it).
    this.version(4).stores(recordTableStores(ENTITY));
    // Dexie's default closes and reopens on the next query (at the new version, with this tab's
    // old code); an upgrade must not wait on this tab either, so close at once, for good.
    // Returning false stops Dexie's default handler.
    this.on('versionchange', (event: IDBVersionChangeEvent) => {
      // No new version: the database is being deleted, not upgraded. What it held is gone.
      if (event.newVersion === null) this.storageLost = true;
      else this.superseded = true;
      this.close({ disableAutoOpen: true });
      for (const listener of this.supersededListeners) listener();
      return false;
    });
    // The `close` event comes only when the browser closes the connection itself (never for
    // close()): the site's data cleared, or the storage lost (a browser may also drop a
    // connection and keep the data). Dexie's own handler reopens on the next query, which would
    // make an empty database afresh where the data was cleared: nothing opens it until it is
    // known to be still there.
    this.on(
      'ready',
      () => {
        this.backendDB().onclose = () => {
          this.close({ disableAutoOpen: true });
          void unopenable(this.name).then((lost) => {
            if (!lost) return this.open().catch(() => undefined);
            this.storageLost = true;
            for (const listener of this.supersededListeners) listener();
          });
        };
      },
      true,
    );
  }

  /**
   * Calls `listener` when the database is superseded (see `superseded`) or its storage is lost
   * (see `storageLost`); returns the unsubscribe.
   */
  onSuperseded(listener: () => void): () => void {
    this.supersededListeners.add(listener);
    return () => this.supersededListeners.delete(listener);
  }
}

/**
 * Whether the database `name` is gone (or cannot be opened at all), checked without making one:
 * opened with no version, a database that does not exist is created, and that is aborted.
 */
function unopenable(name: string): Promise<boolean> {
  return new Promise((resolve) => {
    let request: IDBOpenDBRequest;
    try {
      request = indexedDB.open(name);
    } catch {
      resolve(true);
      return;
    }
    request.onupgradeneeded = () => request.transaction?.abort();
    request.onerror = (event) => {
      event.preventDefault();
      resolve(true);
    };
    request.onsuccess = () => {
      request.result.close();
      resolve(false);
    };
  });
}

// Kept in a module without Dexie: the app's error notice names the database before sign-in's chunk.
export { databaseName };

export function openUserDb(owner: { agencyId: number; username: string }): TraplineDb {
  return new TraplineDb(databaseName(owner));
}
