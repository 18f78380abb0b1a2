import Dexie from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { TraplineDb } from '../../../src/client/db/database';
import { createCollection } from '../../../src/client/db/create-collection';
import { createSite } from '../../../src/client/db/create-site';
import { updateSite } from '../../../src/client/db/update-site';
import { PHOTO_INDEXES } from '../../../src/client/db/photo-rows';
import { storePulledRows } from '../../../src/client/sync/store-pulled-rows';
import type { SiteCreate } from '../../../src/shared';
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

/** The stores of version 3: the schema the previous version of the app left on tablets. */
const VERSION_3 = {
  sites: 'localId, &serverId, code, name, updatedAt',
  collections: 'localId, &serverId, parentLocalId, collectionDate, updatedAt',
  pools: 'localId, &serverId, parentLocalId, updatedAt',
  poolTests: 'localId, &serverId, parentLocalId, updatedAt',
  outbox: 'id, localId, createdAt',
  lookups: 'key',
  meta: 'key',
  photos: PHOTO_INDEXES,
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
      expect(db.verno).toBe(4);
      expect(await db.photos.count()).toBe(0);
      const stored = (store: string) => [
        ...db.backendDB().transaction(store).objectStore(store).indexNames,
      ];
      expect(stored('outbox').sort()).toEqual(['createdAt', 'localId']);
      for (const store of ['sites', 'collections', 'pools', 'poolTests']) {
        expect(stored(store)).not.toContain('syncState');
        expect(stored(store)).not.toContain('updatedAt');
      }
      expect(stored('collections')).toContain('parentLocalId');
    } finally {
      db.close();
    }
  });
});

describe('a tablet whose database was written by version 3 of the app', () => {
  let name = '';
  afterEach(async () => {
    if (name) await Dexie.delete(name);
  });

  /** A site as the service lists it. */
  const listed = (id: number, extra: Record<string, unknown> = {}) => ({
    id,
    code: String(200_000 + id),
    name: `Pulled ${id}`,
    coordinate_precision: 1,
    shape: { type: 'Point', coordinates: [-121.5, 38.5 + id / 100], crs: { type: 'name' } },
    active_date: null,
    deactive_date: null,
    city: 'Davis',
    agency: 1,
    user: 2,
    add_date: '2026-03-01T08:00:00.000Z',
    updated: '2026-06-01T08:00:00.000Z',
    ...extra,
  });

  it('keeps every record and queued entry, drops the updatedAt index, and a later pull leaves the held row', async () => {
    // What version 3 held: pulled sites (look-alikes, one town), one edited here with its update
    // queued, and a site made here with its create queued.
    const source = makeDb();
    await storePulledRows(source, 1, 'site', [listed(1), listed(2), listed(3)]);
    const pulled = await source.sites.toArray();
    const edited = pulled.find((r) => r.serverId === 2)!;
    await updateSite(source, edited.localId, {
      ...(edited.data as SiteCreate),
      name: 'Renamed here',
    });
    const madeHere = await createSite(source, makeSite({ code: '104299' }));
    const before = { sites: await source.sites.toArray(), outbox: await source.outbox.toArray() };
    await source.delete();
    name = `trapline-upgrade-${Math.random().toString(36).slice(2)}`;
    const previous = new Dexie(name);
    previous.version(3).stores({ ...VERSION_3 });
    await previous.open();
    await previous.table('sites').bulkPut(before.sites);
    await previous.table('outbox').bulkPut(before.outbox);
    previous.close();

    const db = new TraplineDb(name);
    try {
      const byId = (a: { localId: string }, b: { localId: string }) =>
        a.localId < b.localId ? -1 : 1;
      expect((await db.sites.toArray()).sort(byId)).toEqual([...before.sites].sort(byId));
      expect(await db.outbox.toArray()).toEqual(before.outbox);
      expect(before.outbox).toHaveLength(2);
      expect(db.verno).toBe(4);
      expect(
        [...db.backendDB().transaction('sites').objectStore('sites').indexNames].sort(),
      ).toEqual(['code', 'name', 'serverId']);
      expect(await db.sites.where('code').equals('104299').count()).toBe(1);

      // The office changed every pulled site; the pull stores them, except the one held.
      const office = [1, 2, 3].map((id) =>
        listed(id, { city: 'Woodland', updated: '2026-07-01T08:00:00.000Z' }),
      );
      expect(await storePulledRows(db, 2, 'site', office)).toMatchObject({ stored: 2, held: [2] });
      const after = await db.sites.toArray();
      expect(after).toHaveLength(4);
      for (const id of [1, 3]) {
        const row = after.find((r) => r.serverId === id)!;
        expect(row.server).toEqual(office[id - 1]);
        expect(row.data).toMatchObject({ city: 'Woodland', name: `Pulled ${id}` });
      }
      const held = after.find((r) => r.serverId === 2)!;
      expect(held.data).toMatchObject({ name: 'Renamed here', city: 'Davis' });
      expect(held.server).toEqual(listed(2));
      expect(after.find((r) => r.localId === madeHere)).toMatchObject({ serverId: null });
      expect(await db.outbox.toArray()).toEqual(before.outbox);
    } finally {
      db.close();
    }
  });
});
