/**
 * Records moved by an edit elsewhere: a collection to another site or out of the pulled window, a
 * pool to another collection, a test to another pool; a collection older than the window edited
 * in the office. The tablet must show each under its parent as the server has it, at its next
 * pull (not an hour later, not never). The records look alike on purpose.
 *
 * Real parts: the BFF and the records service on PGlite over HTTP, a tablet's engine on
 * fake-indexeddb; the window checks (reconcileEveryMs) are kept out of the way.
 */
import { describe, expect, it } from 'vitest';
import type { TraplineDb } from '../../../src/client/db/database';
import { tabletsOnStack } from './helpers/tablets-on-stack';
import { rtPcrTest, siteBody, tarsalis, trapNight } from './helpers/record-bodies';

const DAYS = 86_400_000;
const { world, tablet: onStack } = tabletsOnStack('moves');

function tablet() {
  return onStack({ pull: { pageSize: 2, reconcileEveryMs: 1000 * DAYS } });
}

async function send(method: 'POST' | 'PUT', path: string, body: unknown) {
  const res =
    method === 'POST'
      ? await world.office.post<{ id: number; updated: string }>(path, body)
      : await world.office.put<{ id: number; updated: string }>(path, body);
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return res.body;
}

const daysAgo = (n: number) => new Date(Date.now() - n * DAYS).toISOString().slice(0, 10);
let codeSeq = 0;

const newSite = () =>
  send('POST', '/v1/site', siteBody(890000 + (codeSeq += 1), `Moves site ${codeSeq}`));

/** A look-alike collection (same trap, counts) with one pool of 20 and that pool's test. */
async function collectionWithPool(site: number, day: string) {
  const collection = await send('POST', '/v1/arthropod/collection', {
    site,
    ...trapNight(day),
    arthropods: [tarsalis(40)],
  });
  const pool = await send('POST', '/v1/arthropod/pool', {
    collection: collection.id,
    ...tarsalis(20),
  });
  const test = await send('POST', '/v1/arthropod/pool/test', {
    pool: pool.id,
    ...rtPcrTest(day, world.agency),
  });
  return { collection, pool, test };
}

type Table = 'sites' | 'collections' | 'pools' | 'poolTests';
const row = async (db: TraplineDb, table: Table, id: number) =>
  db[table].where('serverId').equals(id).first();
const localOf = async (db: TraplineDb, table: Table, id: number) =>
  (await row(db, table, id))?.localId;

describe('records moved by an edit elsewhere', () => {
  it('a collection moved to another site shows under that site, its pool following', async () => {
    const { db, engine } = tablet();
    const [s1, s2] = [await newSite(), await newSite()];
    const a = await collectionWithPool(s1.id, daysAgo(2));
    await engine.pull();

    await send('PUT', `/v1/arthropod/collection/${a.collection.id}`, { site: s2.id });
    await engine.pull();

    const c = await row(db, 'collections', a.collection.id);
    expect(c?.parentLocalId).toBe(await localOf(db, 'sites', s2.id));
    const p = await row(db, 'pools', a.pool.id);
    expect(p?.parentLocalId).toBe(c?.localId);
    expect(p?.server).toMatchObject({ site: s2.id });
  });

  it('a pool moved to a look-alike collection shows under it, and its test under the pool', async () => {
    const { db, engine } = tablet();
    const s = await newSite();
    const a = await collectionWithPool(s.id, daysAgo(2));
    const b = await collectionWithPool(s.id, daysAgo(2));
    await engine.pull();

    await send('PUT', `/v1/arthropod/pool/${a.pool.id}`, { collection: b.collection.id });
    await send('PUT', `/v1/arthropod/pool/test/${b.test.id}`, { pool: a.pool.id });
    await engine.pull();

    const bLocal = await localOf(db, 'collections', b.collection.id);
    expect((await row(db, 'pools', a.pool.id))?.parentLocalId).toBe(bLocal);
    const aPool = await localOf(db, 'pools', a.pool.id);
    expect((await row(db, 'poolTests', b.test.id))?.parentLocalId).toBe(aPool);
    expect((await row(db, 'poolTests', a.test.id))?.parentLocalId).toBe(aPool);
    expect(await db.pools.where('parentLocalId').equals(bLocal!).count()).toBe(2);
  });

  it('a collection re-dated out of the window shows its new date at the next pull', async () => {
    const { db, engine } = tablet();
    const s = await newSite();
    const a = await collectionWithPool(s.id, daysAgo(2));
    await engine.pull();

    await send('PUT', `/v1/arthropod/collection/${a.collection.id}`, {
      collection_date: daysAgo(45),
    });
    await engine.pull();

    const moved = await db.collections.where('serverId').equals(a.collection.id).first();
    expect(moved?.collectionDate.slice(0, 10)).toBe(daysAgo(45));
    expect((await row(db, 'pools', a.pool.id))?.server).toMatchObject({
      collection_date: expect.stringContaining(daysAgo(45)),
    });
  });

  it('a pool moved to a collection older than the window leaves its old collection', async () => {
    const { db, engine } = tablet();
    const s = await newSite();
    const a = await collectionWithPool(s.id, daysAgo(2));
    const old = await send('POST', '/v1/arthropod/collection', {
      site: s.id,
      ...trapNight(daysAgo(45)),
      arthropods: [tarsalis(40)],
    });
    await engine.pull();
    const aLocal = await localOf(db, 'collections', a.collection.id);
    expect(await db.pools.where('parentLocalId').equals(aLocal!).count()).toBe(1);

    await send('PUT', `/v1/arthropod/pool/${a.pool.id}`, { collection: old.id });
    await engine.pull();

    expect(await db.pools.where('parentLocalId').equals(aLocal!).count()).toBe(0);
  });

  it('a test moved to a pool the tablet does not hold leaves its old pool', async () => {
    const { db, engine } = tablet();
    const s = await newSite();
    const a = await collectionWithPool(s.id, daysAgo(2));
    const old = await collectionWithPool(s.id, daysAgo(45));
    await engine.pull();
    expect(await db.pools.where('serverId').equals(old.pool.id).count()).toBe(0);
    const aPool = await localOf(db, 'pools', a.pool.id);
    expect(await db.poolTests.where('parentLocalId').equals(aPool!).count()).toBe(1);

    await send('PUT', `/v1/arthropod/pool/test/${a.test.id}`, { pool: old.pool.id });
    await engine.pull();

    expect(await db.poolTests.where('parentLocalId').equals(aPool!).count()).toBe(0);
  });

  it('a collection the window has passed, edited in the office, shows the edit', async () => {
    const { db, engine, clock } = tablet();
    const s = await newSite();
    const a = await collectionWithPool(s.id, daysAgo(2));
    await engine.pull();

    // Five weeks on, the collection is older than the window; the office corrects it.
    clock.offset += 35 * DAYS;
    await engine.pull();
    await send('PUT', `/v1/arthropod/collection/${a.collection.id}`, { num_trap: 2 });
    await engine.pull();

    expect((await row(db, 'collections', a.collection.id))?.data).toMatchObject({ num_trap: 2 });
  });
});
