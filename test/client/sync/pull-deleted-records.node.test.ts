/**
 * Collections and pools deleted in the office. A deleted record leaves the server's lists, so a
 * pull that asks what changed since its mark never hears of it: without a check the technician
 * keeps seeing (and adding pools to) a collection the data manager deleted as a duplicate.
 *
 * Real parts: the BFF and the records service on PGlite over HTTP (the e2e harness's stack), a
 * tablet's engine on fake-indexeddb. The records look alike on purpose: two collections at one
 * site on one day with one trap and equal counts, an equal pool and an equal test on each.
 */
import { describe, expect, it } from 'vitest';
import type { TraplineDb } from '../../../src/client/db/database';
import { tabletsOnStack } from './helpers/tablets-on-stack';
import { createCollection } from '../../../src/client/db/create-collection';
import { createPool } from '../../../src/client/db/create-pool';
import type { PullOptions } from '../../../src/client/sync/pull-options';
import { STATUS_ID, TARGET_ID } from '../../../src/server/records/seed/lookup-data';
import { queueCreate, queueUpdate } from './helpers/outbox-factory';
import { rtPcrTest, siteBody, tarsalis, trapNight } from './helpers/record-bodies';
import { createRecord, deleteRecord } from './helpers/records-service-writes';

const HOUR = 3_600_000;
const { world, tablet: onStack } = tabletsOnStack('deleted');

/** A tablet whose clock the test moves (the server keeps the real one). */
function tablet(pull: Partial<PullOptions> = {}) {
  return onStack({ pull: { pageSize: 2, ...pull } });
}

const create = (path: string, body: unknown) => createRecord(world.office, path, body);
const remove = (path: string) => deleteRecord(world.stack.recordsUrl, world.office, path);

const DAY = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
let codeSeq = 0;

/** A site with two look-alike collections, each with an equal pool holding an equal test. */
async function twoLookAlikes() {
  const site = await create(
    '/v1/site',
    siteBody(880000 + (codeSeq += 1), `Deleted-records site ${codeSeq}`),
  );
  const made = [];
  for (let i = 0; i < 2; i++) {
    const collection = await create('/v1/arthropod/collection', {
      site: site.id,
      ...trapNight(DAY),
      arthropods: [tarsalis(40)],
    });
    const pool = await create('/v1/arthropod/pool', { collection: collection.id, ...tarsalis(20) });
    const test = await create('/v1/arthropod/pool/test', {
      pool: pool.id,
      ...rtPcrTest(DAY, world.agency),
    });
    made.push({ collection, pool, test });
  }
  return { site, a: made[0], b: made[1] };
}

const has = async (db: TraplineDb, table: 'collections' | 'pools' | 'poolTests', id: number) =>
  (await db[table].where('serverId').equals(id).count()) === 1;

const localId = async (db: TraplineDb, table: 'collections' | 'pools', id: number) =>
  (await db[table].where('serverId').equals(id).first())!.localId;

describe('collections and pools deleted in the office', () => {
  it('a deleted collection leaves the tablet with its pools and their tests; its look-alike stays', async () => {
    const { db, engine, clock } = tablet();
    const { a, b } = await twoLookAlikes();
    await engine.pull();
    expect(await has(db, 'collections', a.collection.id)).toBe(true);
    expect(await has(db, 'poolTests', a.test.id)).toBe(true);

    await remove(`/v1/arthropod/collection/${a.collection.id}`);
    clock.offset += HOUR + 1;
    await engine.pull();

    expect(await has(db, 'collections', a.collection.id)).toBe(false);
    expect(await has(db, 'pools', a.pool.id)).toBe(false);
    expect(await has(db, 'poolTests', a.test.id)).toBe(false);
    expect(await has(db, 'collections', b.collection.id)).toBe(true);
    expect(await has(db, 'pools', b.pool.id)).toBe(true);
    expect(await has(db, 'poolTests', b.test.id)).toBe(true);
    const bPool = (await db.pools.where('serverId').equals(b.pool.id).first())!;
    expect(bPool.parentLocalId).toBe(await localId(db, 'collections', b.collection.id));
  });

  it('a deleted pool leaves the tablet, and its test (still active on the server) does not bring it back', async () => {
    const { db, engine, clock } = tablet();
    const { a, b } = await twoLookAlikes();
    await engine.pull();

    await remove(`/v1/arthropod/pool/${a.pool.id}`);
    clock.offset += HOUR + 1;
    await engine.pull();
    expect(await has(db, 'pools', a.pool.id)).toBe(false);
    expect(await has(db, 'poolTests', a.test.id)).toBe(false);

    // An upstream that keeps a deleted pool's tests active (the contract is silent; this one
    // retires them), and a lab's late correction of it, listed as changed.
    await world.stack.db.query(
      `update pool_test set value = 31.5, deactive_date = null, updated = now() where id = $1`,
      [a.test.id],
    );
    const listed = await world.office.poolTests(`query[id]=${a.test.id}`);
    expect(listed.rows).toHaveLength(1);
    await engine.pull();
    clock.offset += HOUR + 1;
    await engine.pull();

    expect(await has(db, 'pools', a.pool.id)).toBe(false);
    expect(await has(db, 'poolTests', a.test.id)).toBe(false);
    expect(await has(db, 'collections', a.collection.id)).toBe(true);
    expect(await has(db, 'pools', b.pool.id)).toBe(true);
    expect(await has(db, 'poolTests', b.test.id)).toBe(true);
  });

  it('keeps a deleted collection while something of the technician hangs on it', async () => {
    const { db, engine, clock } = tablet();
    const first = await twoLookAlikes();
    const second = await twoLookAlikes();
    await engine.pull();
    // An unsent pool under A; an unsent edit of the other A; a look-alike unsent collection.
    const withPool = await localId(db, 'collections', first.a.collection.id);
    const queuedPool = await queueCreate(db, 'pool', tarsalis(5), withPool);
    const edited = await localId(db, 'collections', second.a.collection.id);
    await queueUpdate(db, 'collection', edited, { comments: 'Trap knocked over' });
    const siteLocal = (await db.sites.where('serverId').equals(first.site.id).first())!.localId;
    const unsent = await queueCreate(db, 'collection', trapNight(DAY), siteLocal);
    // An unsent test of A's synced pool in the second pair: the pool stays, and so its collection.
    const testedPool = await localId(db, 'pools', second.b.pool.id);
    await queueCreate(
      db,
      'poolTest',
      rtPcrTest(DAY, world.agency, { target: TARGET_ID.slev, status: STATUS_ID.pending }),
      testedPool,
    );

    for (const pair of [first, second])
      for (const x of [pair.a, pair.b]) await remove(`/v1/arthropod/collection/${x.collection.id}`);
    clock.offset += HOUR + 1;
    await engine.pull();

    expect(await db.collections.get(withPool)).toBeDefined();
    expect(await db.pools.get(queuedPool.localId)).toBeDefined();
    expect(await db.collections.get(edited)).toMatchObject({ syncState: 'queued' });
    expect(await db.collections.get(unsent.localId)).toMatchObject({ serverId: null });
    expect(await has(db, 'pools', second.b.pool.id)).toBe(true);
    expect(await has(db, 'collections', second.b.collection.id)).toBe(true);
    // Nothing of the technician's hangs on the first B: it goes, with its pool and test.
    expect(await has(db, 'collections', first.b.collection.id)).toBe(false);
    expect(await has(db, 'pools', first.b.pool.id)).toBe(false);
    expect(await has(db, 'poolTests', first.b.test.id)).toBe(false);
  });

  it('two tablets of one agency: look-alikes each shown once on both, one deleted leaves both', async () => {
    const [one, two] = [tablet(), tablet()];
    const { site } = await twoLookAlikes();
    await one.engine.pull();
    await two.engine.pull();
    // Each technician saves the same trap at the same site on the same day, with an equal pool.
    const made: number[] = [];
    for (const t of [one, two]) {
      const siteLocal = (await t.db.sites.where('serverId').equals(site.id).first())!.localId;
      const c = await createCollection(t.db, siteLocal, {
        ...trapNight(DAY),
        arthropods: [tarsalis(40)],
      });
      await createPool(t.db, c, tarsalis(20));
      t.engine.requestSync('save');
      await t.engine.settled();
      made.push((await t.db.collections.get(c))!.serverId!);
    }
    for (const t of [one, two]) await t.engine.pull();
    const poolsUnder = async (t: { db: TraplineDb }, serverId: number) => {
      const c = await t.db.collections.where('serverId').equals(serverId).first();
      return c ? t.db.pools.where('parentLocalId').equals(c.localId).count() : 0;
    };
    const counts = [];
    for (const t of [one, two]) {
      const ids = (await t.db.collections.toArray()).map((c) => c.serverId);
      expect(ids.filter((id) => made.includes(id!))).toHaveLength(2);
      expect(new Set(ids).size).toBe(ids.length);
      for (const id of made) expect(await poolsUnder(t, id)).toBe(1);
      expect(await t.db.outbox.count()).toBe(0);
      counts.push({ collections: ids.length, pools: await t.db.pools.count() });
    }

    await remove(`/v1/arthropod/collection/${made[0]}`);
    for (const [i, t] of [one, two].entries()) {
      t.clock.offset += HOUR + 1;
      await t.engine.pull();
      expect(await has(t.db, 'collections', made[0])).toBe(false);
      expect(await has(t.db, 'collections', made[1])).toBe(true);
      expect(await poolsUnder(t, made[1])).toBe(1);
      expect(await t.db.collections.count()).toBe(counts[i].collections - 1);
      expect(await t.db.pools.count()).toBe(counts[i].pools - 1);
    }
  });

  it('checks at most once per reconcileEveryMs, with one small listing per list', async () => {
    const { db, engine, clock } = tablet({ pageSize: 1000 });
    const { a } = await twoLookAlikes();
    await engine.pull();
    await remove(`/v1/arthropod/collection/${a.collection.id}`);

    // Within the hour: no check, the request count of a pull with nothing new is unchanged.
    clock.offset += HOUR / 2;
    world.stack.records.reset();
    await engine.pull();
    const within = world.stack.records.requests.filter((r) => r.method === 'GET').length;
    expect(within).toBe(4);
    expect(await has(db, 'collections', a.collection.id)).toBe(true);

    clock.offset += HOUR;
    world.stack.records.reset();
    await engine.pull();
    const gets = world.stack.records.requests.filter((r) => r.method === 'GET');
    // The four lists, the site ids, and the collection and pool ids of the window.
    expect(gets.length).toBe(7);
    expect(await has(db, 'collections', a.collection.id)).toBe(false);
  });
});
