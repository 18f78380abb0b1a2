/**
 * A technician moves a collection entered at the wrong site (contract §7: the creator may update
 * it, site included; §6: its location follows the site). The tablet's repositories and sync
 * engine against the real BFF and records service: what the service holds is what counts.
 */
import { describe, expect, it } from 'vitest';
import { createCollection } from '../../../src/client/db/create-collection';
import { createSite } from '../../../src/client/db/create-site';
import type { TraplineDb } from '../../../src/client/db/database';
import { updateCollection } from '../../../src/client/db/update-collection';
import { storePulledRows } from '../../../src/client/sync/store-pulled-rows';
import { PRECISION_ID } from '../../../src/server/records/seed/lookup-data';
import type { SiteCreate } from '../../../src/shared';
import { siteBody, tarsalis, trapNight } from '../sync/helpers/record-bodies';
import { tabletsOnStack } from '../sync/helpers/tablets-on-stack';

const { world, tablet } = tabletsOnStack('move-collection');

let code = 0;
const today = new Date().toISOString().slice(0, 10);
const NORTH: [number, number] = [-121.69, 38.31];
const SOUTH: [number, number] = [-121.66, 38.21];
const newSite = (at: [number, number]) =>
  siteBody(812000 + (code += 1), `Move site ${code}`, at) as SiteCreate;
const night = (comments: string) => ({
  ...trapNight(today),
  arthropods: [tarsalis(40)],
  comments,
});

type ServerCollection = {
  site: number | null;
  comments: string | null;
  arthropods: { num_count: number }[];
  location: { shape: { coordinates: number[] } };
};

async function onServer(db: TraplineDb, localId: string): Promise<ServerCollection> {
  const row = (await db.collections.get(localId))!;
  expect(row.serverId, 'the collection reached the server').not.toBeNull();
  return world.office.get<ServerCollection>(`/v1/arthropod/collection/${row.serverId}`);
}

const serverIdOf = async (db: TraplineDb, siteLocalId: string) =>
  (await db.sites.get(siteLocalId))!.serverId;

async function sync(t: ReturnType<typeof tablet>) {
  t.engine.requestSync('test');
  await t.engine.settled();
  expect(await t.db.outbox.toArray()).toEqual([]);
}

describe('moving a collection to another site', () => {
  it('moves a synced collection: the service holds the new site and its place, nothing else changes', async () => {
    const t = tablet();
    const north = await createSite(t.db, newSite(NORTH));
    const south = await createSite(t.db, newSite(SOUTH));
    const c = await createCollection(t.db, north, night('Wrong site'));
    await sync(t);
    const opened = (await t.db.collections.get(c))!.data;

    expect(await updateCollection(t.db, c, opened as never, opened, undefined, south)).toBe(true);
    const row = (await t.db.collections.get(c))!;
    expect(row.parentLocalId).toBe(south);
    expect(row.syncState).toBe('queued');
    await sync(t);

    const stored = await onServer(t.db, c);
    expect(stored.site).toBe(await serverIdOf(t.db, south));
    expect(stored.location.shape.coordinates).toEqual(SOUTH);
    expect(stored.comments).toBe('Wrong site');
    expect(stored.arthropods.map((a) => a.num_count)).toEqual([40]);
    expect((await t.db.collections.get(c))!.syncState).toBe('synced');
  });

  it('sends an edit and a move saved together as one change', async () => {
    const t = tablet();
    const north = await createSite(t.db, newSite(NORTH));
    const south = await createSite(t.db, newSite(SOUTH));
    const c = await createCollection(t.db, north, night('Typed at north'));
    await sync(t);
    const opened = (await t.db.collections.get(c))!.data;
    const edited = { ...opened, comments: 'Moved to south' };

    await updateCollection(t.db, c, edited as never, opened, undefined, south);
    expect((await t.db.outbox.toArray()).map((e) => [e.op, e.payload])).toEqual([
      ['update', { comments: 'Moved to south' }],
    ]);
    await sync(t);

    const stored = await onServer(t.db, c);
    expect(stored.site).toBe(await serverIdOf(t.db, south));
    expect(stored.comments).toBe('Moved to south');
  });

  it('moves a collection not yet sent: one create, at the new site, which is sent first', async () => {
    const t = tablet();
    const north = await createSite(t.db, newSite(NORTH));
    await sync(t);
    const c = await createCollection(t.db, north, night('Never sent'));
    // The right site is new too: the collection must wait for it.
    const south = await createSite(t.db, newSite(SOUTH));
    const opened = (await t.db.collections.get(c))!.data;

    await updateCollection(t.db, c, opened as never, opened, undefined, south);
    expect((await t.db.outbox.toArray()).map((e) => `${e.entity}:${e.op}`).sort()).toEqual([
      'collection:create',
      'site:create',
    ]);
    await sync(t);

    const stored = await onServer(t.db, c);
    expect(stored.site).toBe(await serverIdOf(t.db, south));
    expect(stored.location.shape.coordinates).toEqual(SOUTH);
    const all = await world.office.collections('query[comments]=Never sent');
    expect(all.count).toBe(1);
  });

  it('moving from the Zero Site, takes the site’s place instead of the one-off point', async () => {
    const t = tablet();
    const zero = (await world.office.sites('query[code]=000000')).rows[0];
    await storePulledRows(t.db, Date.now(), 'site', [zero]);
    const zeroId = (await t.db.sites
      .where('serverId')
      .equals(zero.id as number)
      .first())!.localId;
    const south = await createSite(t.db, newSite(SOUTH));
    const oneOff = {
      shape: { type: 'Point' as const, coordinates: [-121.9, 38.9] as [number, number] },
      coordinate_precision: PRECISION_ID.gps,
    };
    const c = await createCollection(t.db, zeroId, { ...night('One-off'), location: oneOff });
    await sync(t);
    expect((await onServer(t.db, c)).location.shape.coordinates).toEqual([-121.9, 38.9]);
    const opened = (await t.db.collections.get(c))!.data;
    // The form sends no location at a site other than the Zero Site.
    const { location: _none, ...atSite } = opened;

    await updateCollection(t.db, c, atSite as never, opened, undefined, south);
    expect((await t.db.collections.get(c))!.data.location).toBeUndefined();
    await sync(t);

    const stored = await onServer(t.db, c);
    expect(stored.site).toBe(await serverIdOf(t.db, south));
    expect(stored.location.shape.coordinates).toEqual(SOUTH);
  });

  it('saves nothing when the collection stays where it is', async () => {
    const t = tablet();
    const north = await createSite(t.db, newSite(NORTH));
    const c = await createCollection(t.db, north, night('Stays'));
    await sync(t);
    const opened = (await t.db.collections.get(c))!.data;
    expect(await updateCollection(t.db, c, opened as never, opened, undefined, north)).toBe(false);
    expect(await t.db.outbox.count()).toBe(0);
  });
});
