import { describe, expect, it } from 'vitest';
import { collection, pool, poolTest, queueUpdate, site } from './helpers/outbox-factory';
import { setupEngine } from './helpers/setup-engine';
import { COMMIT_WAIT_MS } from '../../../src/client/sync/pull-mark';

const NOW = Date.parse('2026-07-20T12:00:00.000Z');

function seedCollectionWithPools(bff: ReturnType<typeof setupEngine>['bff']) {
  const s = bff.seed('site', site(1));
  const c = bff.seed('collection', { ...collection('2026-07-10T00:00:00.000Z'), site: s.id });
  const p1 = bff.seed('pool', { ...pool(), collection: c.id, site: s.id });
  const p2 = bff.seed('pool', { ...pool(), species: 2, collection: c.id, site: s.id });
  const t1 = bff.seed('poolTest', { ...poolTest(), pool: p1.id });
  return { s, c, p1, p2, t1 };
}

describe('pull of pools and pool tests', () => {
  it('shows the pools and tests of a collection made on another tablet under that collection', async () => {
    const { db, bff, engine } = setupEngine({ now: () => NOW, pull: { pageSize: 2 } });
    const { c, p1, p2, t1 } = seedCollectionWithPools(bff);
    // A pool of a collection older than the pull window stays on the server.
    const old = bff.seed('collection', collection('2026-05-01T00:00:00.000Z'));
    bff.seed('pool', { ...pool(), collection: old.id });

    await engine.pull();

    const collectionRow = (await db.collections.where('serverId').equals(c.id).first())!;
    const pools = await db.pools.where('parentLocalId').equals(collectionRow.localId).toArray();
    expect(pools.map((p) => p.serverId).sort()).toEqual([p1.id, p2.id]);
    expect(await db.pools.count()).toBe(2);
    expect(pools.every((p) => p.syncState === 'synced')).toBe(true);
    const p1Row = pools.find((p) => p.serverId === p1.id)!;
    expect(p1Row.data).toMatchObject({ num_count: 10, species: 1, sex: 1 });
    expect(p1Row.data).not.toHaveProperty('collection');
    const tests = await db.poolTests.toArray();
    expect(tests).toHaveLength(1);
    expect(tests[0]).toMatchObject({
      serverId: t1.id,
      parentLocalId: p1Row.localId,
      syncState: 'synced',
      data: { method: 1, target: 1, status: 1 },
    });
  });

  it('asks only for pools and tests changed since the last pull, and gets the tests of new pools', async () => {
    const { db, bff, engine } = setupEngine({ now: () => NOW });
    const { s, c, p1 } = seedCollectionWithPools(bff);
    // Written long enough before the pull that no write stamped before it can still commit.
    bff.passTime(COMMIT_WAIT_MS);
    await engine.pull();
    const testMark = bff.all('poolTest')[0].updated;
    bff.edit('pool', p1.id, { num_count: 8 });
    const t2 = bff.seed('poolTest', { ...poolTest(), pool: p1.id, value: 2.5 });
    const p3 = bff.seed('pool', { ...pool(), species: 3, collection: c.id, site: s.id });
    const t3 = bff.seed('poolTest', { ...poolTest(), pool: p3.id });
    const requestsBefore = bff.requests.length;

    await engine.pull();

    const later = bff.requests.slice(requestsBefore).map((r) => decodeURIComponent(r.path));
    expect(later.find((p) => p.includes('/arthropod/pool?'))).toContain('query[updated][$gt]=');
    expect(later.some((p) => p.includes('/pool/test?') && p.includes(`$gt]=${testMark}`))).toBe(
      true,
    );
    expect((await db.pools.where('serverId').equals(p1.id).first())?.data.num_count).toBe(8);
    expect(await db.pools.count()).toBe(3);
    const tests = await db.poolTests.toArray();
    expect(tests.map((t) => t.serverId).sort()).toEqual(
      [bff.all('poolTest')[0].id, t2.id, t3.id].sort(),
    );
  });

  it('never overwrites a pool with a local change not yet on the server', async () => {
    const { db, bff, engine } = setupEngine({ now: () => NOW });
    const { p1 } = seedCollectionWithPools(bff);
    await engine.pull();
    const row = (await db.pools.where('serverId').equals(p1.id).first())!;
    await queueUpdate(db, 'pool', row.localId, { num_count: 4 });
    bff.edit('pool', p1.id, { num_count: 9 });

    await engine.pull();

    expect((await db.pools.get(row.localId))?.data.num_count).toBe(4);
  });

  it('asks for changed tests in one request however many pools the tablet holds (one bar of signal)', async () => {
    const { db, bff, engine } = setupEngine({ now: () => NOW });
    const s = bff.seed('site', site(1));
    const c = bff.seed('collection', { ...collection('2026-07-10T00:00:00.000Z'), site: s.id });
    const pools = Array.from({ length: 250 }, () =>
      bff.seed('pool', { ...pool(), collection: c.id, site: s.id }),
    );
    await engine.pull();
    expect(await db.pools.count()).toBe(250);
    // A test of a pool the tablet does not hold (its collection is older than the window).
    const old = bff.seed('collection', collection('2026-05-01T00:00:00.000Z'));
    const elsewhere = bff.seed('pool', { ...pool(), collection: old.id });
    bff.seed('poolTest', { ...poolTest(), pool: elsewhere.id });
    const fresh = bff.seed('poolTest', { ...poolTest(), pool: pools[200].id });
    const before = bff.requests.length;

    await engine.pull();

    const testRequests = bff.requests.slice(before).filter((r) => r.path.includes('/pool/test'));
    expect(testRequests).toHaveLength(1);
    const stored = await db.poolTests.toArray();
    expect(stored.map((t) => t.serverId)).toEqual([fresh.id]);
  });
});
