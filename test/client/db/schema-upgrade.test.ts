import Dexie from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { TraplineDb } from '../../../src/client/db/database';
import { createCollection } from '../../../src/client/db/create-collection';
import { createSite } from '../../../src/client/db/create-site';
import { makeCollection, makeDb, makeSite } from './factories';

/** The stores as version 1 of the app declared them: what a tablet in the field holds today. */
const VERSION_1 = {
  sites: 'localId, &serverId, syncState, code, name, updatedAt',
  collections: 'localId, &serverId, syncState, parentLocalId, collectionDate, updatedAt',
  pools: 'localId, &serverId, syncState, parentLocalId, updatedAt',
  poolTests: 'localId, &serverId, syncState, parentLocalId, updatedAt',
  outbox: 'id, entity, localId, state, nextAttemptAt, createdAt',
  lookups: 'key',
  meta: 'key',
};

describe('a tablet whose database was written by version 1 of the app', () => {
  let name = '';
  afterEach(async () => {
    if (name) await Dexie.delete(name);
  });

  it('opens under the current version with every record and queued entry as they were', async () => {
    // Queue work the way the app does, then copy it into a database at version 1's schema.
    const source = makeDb();
    const siteId = await createSite(source, makeSite());
    await createCollection(source, siteId, makeCollection());
    await createCollection(source, siteId, makeCollection());
    const tables = Object.keys(VERSION_1);
    const rows = Object.fromEntries(
      await Promise.all(tables.map(async (t) => [t, await source.table(t).toArray()] as const)),
    );
    await source.delete();

    name = `trapline-upgrade-${Math.random().toString(36).slice(2)}`;
    const v1 = new Dexie(name);
    v1.version(1).stores(VERSION_1);
    for (const t of tables) await v1.table(t).bulkPut(rows[t]);
    v1.close();

    const db = new TraplineDb(name);
    try {
      for (const t of tables) {
        const key = t === 'outbox' ? 'id' : t === 'lookups' || t === 'meta' ? 'key' : 'localId';
        const byKey = (a: Record<string, string>, b: Record<string, string>) =>
          a[key] < b[key] ? -1 : 1;
        expect((await db.table(t).toArray()).sort(byKey)).toEqual([...rows[t]].sort(byKey));
      }
      expect(await db.outbox.count()).toBe(3);
      // The indexes still in use answer as before.
      expect(await db.collections.where('parentLocalId').equals(siteId).count()).toBe(2);
      expect(await db.outbox.where('localId').equals(siteId).count()).toBe(1);
      // The dropped ones are gone from the stored database itself: no send writes them any more.
      expect(db.verno).toBe(3);
      expect(await db.photos.count()).toBe(0);
      const stored = (store: string) => [
        ...db.backendDB().transaction(store).objectStore(store).indexNames,
      ];
      expect(stored('outbox').sort()).toEqual(['createdAt', 'localId']);
      for (const store of ['sites', 'collections', 'pools', 'poolTests'])
        expect(stored(store)).not.toContain('syncState');
      expect(stored('collections')).toContain('parentLocalId');
    } finally {
      db.close();
    }
  });
});
