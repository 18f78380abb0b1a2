import type { SiteCreate } from '../../../src/shared';
import type { CollectionData } from '../../../src/client/db/create-collection';
import type { PoolData } from '../../../src/client/db/create-pool';
import { TraplineDb } from '../../../src/client/db/database';

let n = 0;
/** A fresh database per test: fake-indexeddb in memory, real Dexie. */
export function makeDb(): TraplineDb {
  n += 1;
  return new TraplineDb(`trapline-test-${n}-${Math.random().toString(36).slice(2)}`);
}

/** Makes an IndexedDB database of `name` with no store in it, as a raw open that only looked does. */
export function emptyDatabase(name: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const open = indexedDB.open(name);
    open.onsuccess = () => resolve(open.result.close());
    open.onerror = () => reject(open.error);
  });
}

export function makeSite(overrides: Partial<SiteCreate> = {}): SiteCreate {
  return {
    code: '104233',
    name: 'Putah Creek N',
    coordinate_precision: 1,
    shape: { type: 'Point', coordinates: [-121.49, 38.58] },
    ...overrides,
  };
}

export function makeCollection(overrides: Partial<CollectionData> = {}): CollectionData {
  return {
    collection_date: '2026-07-14T06:30:00-07:00',
    num_trap: 1,
    trap: 2,
    trap_nights: 1,
    arthropods: [{ species: 1, sex: 1, num_count: 120 }],
    ...overrides,
  };
}

export function makePool(overrides: Partial<PoolData> = {}): PoolData {
  return { species: 1, sex: 1, num_count: 50, ...overrides };
}
