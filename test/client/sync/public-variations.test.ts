import { describe, expect, it } from 'vitest';
import { createCollection } from '../../../src/client/db/create-collection';
import { createSite } from '../../../src/client/db/create-site';
import { updateCollection } from '../../../src/client/db/update-collection';
import { updateSite } from '../../../src/client/db/update-site';
import type { SiteCreate } from '../../../src/shared';
import { PUBLIC_VARIATIONS } from './helpers/fake-bff';
import { collection, site } from './helpers/outbox-factory';
import { drain, setupEngine } from './helpers/setup-engine';

const NOW = Date.parse('2026-07-20T12:00:00.000Z');

/**
 * The engine against an upstream answering like the public VectorSurv API (contract, *tolerate*):
 * lists as bare arrays without count, creates answered 200, elevation as a numeric string, lures
 * as lure records without table_name.
 */
function publicSetup() {
  const setup = setupEngine({ now: () => NOW, pull: { pageSize: 2 } });
  setup.bff.variations = { ...PUBLIC_VARIATIONS };
  return setup;
}

describe('an upstream with the public API variations', () => {
  it('pulls every page of sites and collections with numbers and lure types as the tablet keeps them', async () => {
    const { db, bff, engine } = publicSetup();
    const sites = [1, 2, 3].map((n) => bff.seed('site', { ...site(n), elevation: 12.5 }));
    bff.seed('collection', {
      ...collection('2026-07-10T00:00:00.000Z'),
      site: sites[2].id,
      lures: [3, 4],
    });

    await engine.pull();

    const rows = await db.sites.toArray();
    expect(rows).toHaveLength(3);
    expect(rows.every((r) => r.data.elevation === 12.5)).toBe(true);
    const [c] = await db.collections.toArray();
    expect(c.data.lures).toEqual([3, 4]);
    expect(c.parentLocalId).toBe(rows.find((r) => r.serverId === sites[2].id)?.localId);
  });

  it('creates a site and its collection once each when creates are answered 200', async () => {
    const { db, bff, engine } = publicSetup();
    const siteId = await createSite(db, { ...site(1), elevation: 12.5 } as SiteCreate);
    const collectionId = await createCollection(db, siteId, {
      ...collection('2026-07-14'),
      lures: [3],
    });

    await drain(engine);

    expect(await db.outbox.count()).toBe(0);
    expect(bff.all('site')).toHaveLength(1);
    expect(bff.all('collection')).toHaveLength(1);
    const siteRow = (await db.sites.get(siteId))!;
    const collectionRow = (await db.collections.get(collectionId))!;
    expect(siteRow).toMatchObject({ syncState: 'synced', serverId: bff.all('site')[0].id });
    expect(collectionRow).toMatchObject({ syncState: 'synced', data: { lures: [3] } });
    expect(bff.all('collection')[0].site).toBe(siteRow.serverId);
  });

  it('sends only the field the user changed on records pulled from it, and no false conflict', async () => {
    const { db, bff, engine } = publicSetup();
    const s = bff.seed('site', { ...site(1), elevation: 12.5 });
    const c = bff.seed('collection', {
      ...collection('2026-07-14T13:30:00.000Z'),
      site: s.id,
      lures: [3],
      comments: 'dry',
    });
    await engine.pull();
    const siteRow = (await db.sites.toArray())[0];
    const collectionRow = (await db.collections.toArray())[0];
    // Someone else changed another field meanwhile: the tablet's base is now older.
    bff.edit('collection', c.id, { trap_nights: 2 });

    await updateSite(db, siteRow.localId, { ...(siteRow.data as SiteCreate), name: 'Renamed' });
    await updateCollection(db, collectionRow.localId, {
      ...(collectionRow.data as Parameters<typeof updateCollection>[2]),
      collection_date: '2026-07-14T06:30:00-07:00',
      lures: [3, 4],
    });
    await drain(engine);

    // The site's and the collection's edits wait on nothing and are sent side by side: which PUT
    // reaches the server first is a race, what each one carries is not.
    const puts = bff.requests.filter((r) => r.method === 'PUT');
    expect(puts.map((r) => r.body)).toHaveLength(2);
    expect(puts.map((r) => r.body)).toEqual(
      expect.arrayContaining([{ name: 'Renamed' }, { lures: [3, 4] }]),
    );
    expect(await db.outbox.count()).toBe(0);
    expect(bff.get('collection', c.id)).toMatchObject({ lures: [3, 4], trap_nights: 2 });
    expect((await db.collections.get(collectionRow.localId))?.syncState).toBe('synced');
  });
});
