/**
 * Issue 35 (4): "the server gave it pool_num 82 (seen only in the export)". The numbers the
 * records service gives a collection and its pools reach the tablet's rows with the create's
 * acknowledgement, and with a pull on a tablet that never sent them; before either, none.
 */
import { describe, expect, it } from 'vitest';
import { collectionNumberOf, poolNumberOf } from '../../../src/client/db/record-numbers';
import { queueCreate } from './helpers/outbox-factory';
import { siteBody, tarsalis, trapNight } from './helpers/record-bodies';
import { tabletsOnStack } from './helpers/tablets-on-stack';

const { world, tablet } = tabletsOnStack('record-numbers');

const today = new Date().toISOString().slice(0, 10);

type Numbered = { id: number; pool_num?: number; collection_num?: number };

describe('pool and collection numbers on the tablet', () => {
  it('arrive with the acknowledgement, and two equal pools get different numbers', async () => {
    const { db, engine } = tablet();
    const s = await queueCreate(db, 'site', siteBody(830001, 'Numbered ditch'));
    const c = await queueCreate(
      db,
      'collection',
      { ...trapNight(today), arthropods: [tarsalis(50)] },
      s.localId,
    );
    const p1 = await queueCreate(db, 'pool', tarsalis(25), c.localId);
    const p2 = await queueCreate(db, 'pool', tarsalis(25), c.localId);

    const before = [await db.pools.get(p1.localId), await db.pools.get(p2.localId)];
    expect(before.map((p) => poolNumberOf(p!))).toEqual([null, null]);
    expect(collectionNumberOf((await db.collections.get(c.localId))!)).toBeNull();

    engine.requestSync('test');
    await engine.settled();

    const collection = (await db.collections.get(c.localId))!;
    const pools = [(await db.pools.get(p1.localId))!, (await db.pools.get(p2.localId))!];
    const onServer = {
      collection: await world.office.get<Numbered>(
        `/v1/arthropod/collection/${collection.serverId}`,
      ),
      pools: await Promise.all(
        pools.map((p) => world.office.get<Numbered>(`/v1/arthropod/pool/${p.serverId}`)),
      ),
    };
    expect(collectionNumberOf(collection)).toBe(onServer.collection.collection_num);
    expect(pools.map(poolNumberOf)).toEqual(onServer.pools.map((p) => p.pool_num));
    expect(poolNumberOf(pools[0])).not.toBe(poolNumberOf(pools[1]));
  });

  it('arrive with a pull on a tablet that did not send them', async () => {
    const site = await world.office.post<Numbered>('/v1/site', siteBody(830002, 'Pulled pond'));
    const made = await world.office.post<Numbered>('/v1/arthropod/collection', {
      ...trapNight(today),
      site: site.body.id,
      arthropods: [tarsalis(30)],
    });
    const pool = await world.office.post<Numbered>('/v1/arthropod/pool', {
      ...tarsalis(30),
      collection: made.body.id,
    });
    expect([made.status, pool.status]).toEqual([201, 201]);

    const { db, engine } = tablet();
    await engine.pull();

    const collection = await db.collections.where('serverId').equals(made.body.id).first();
    const pulled = await db.pools.where('serverId').equals(pool.body.id).first();
    expect(collectionNumberOf(collection!)).toBe(made.body.collection_num);
    expect(poolNumberOf(pulled!)).toBe(pool.body.pool_num);
  });
});
