import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createCollection } from '../../../src/client/db/create-collection';
import { createPoolTest } from '../../../src/client/db/create-pool-test';
import { createPools } from '../../../src/client/db/create-pools';
import { createSite } from '../../../src/client/db/create-site';
import type { TraplineDb } from '../../../src/client/db/database';
import { deletePool } from '../../../src/client/db/delete-pool';
import {
  readCollectionForPools,
  readPoolForEdit,
  readPoolLineage,
  readPoolsOf,
  readPoolsWithTests,
  readPoolTestLineage,
  readSiteCollections,
} from '../../../src/client/db/record-reads';
import { makeCollection, makeDb, makePool, makeSite } from './factories';

/**
 * The record screens' reads, one named function each (what the screens ran inline): a record with
 * its parent and grandparent, a parent with its children, and what each answers when a record is
 * not on this tablet.
 */
let db: TraplineDb;
let siteId: string;
let collectionId: string;
let poolIds: string[];
const test = (test_date: string) => ({
  method: 1,
  target: 1,
  status: 1,
  test_date,
  test_agency: 1,
});

beforeEach(async () => {
  db = makeDb();
  siteId = await createSite(db, makeSite());
  collectionId = await createCollection(db, siteId, makeCollection());
  // Two equal pools: told apart by the order they were made.
  poolIds = await createPools(db, collectionId, [makePool(), makePool(), makePool({ sex: 2 })]);
});
afterEach(async () => {
  await db?.delete();
});

describe('record reads', () => {
  it('reads a pool test with its pool and that pool’s collection', async () => {
    const testId = await createPoolTest(db, poolIds[1], test('2026-07-20'));
    const read = await readPoolTestLineage(db, testId);
    expect(read.test?.localId).toBe(testId);
    expect(read.pool?.localId).toBe(poolIds[1]);
    expect(read.collection?.localId).toBe(collectionId);
    expect(await readPoolTestLineage(db, 'not-here')).toEqual({
      test: null,
      pool: null,
      collection: null,
    });
  });

  it('reads a pool with its collection, and null for one not on this tablet', async () => {
    const read = await readPoolLineage(db, poolIds[0]);
    expect([read.pool?.localId, read.collection?.localId]).toEqual([poolIds[0], collectionId]);
    expect(await readPoolLineage(db, 'not-here')).toEqual({ pool: null, collection: null });
  });

  it('reads a pool for editing with the other pools of its collection, deleted ones left out', async () => {
    await deletePool(db, poolIds[2]);
    const read = await readPoolForEdit(db, poolIds[0]);
    expect(read.pool?.localId).toBe(poolIds[0]);
    expect(read.collection?.localId).toBe(collectionId);
    expect(read.others.map((p) => p.localId)).toEqual([poolIds[1]]);
  });

  it('reads a collection with its pools for the pools screen', async () => {
    const read = await readCollectionForPools(db, collectionId);
    expect(read.collection?.localId).toBe(collectionId);
    expect(read.pools.map((p) => p.localId).sort()).toEqual([...poolIds].sort());
    expect(await readCollectionForPools(db, 'not-here')).toEqual({ collection: null, pools: [] });
    expect((await readPoolsOf(db, collectionId)).length).toBe(3);
  });

  it('keeps same-day re-tests saved within one millisecond in the order they were saved', async () => {
    // Seen as a flaky run of the test below: records made in separate saves took Date.now() as
    // when they were made, so two in one millisecond tied and their random ids decided.
    const clock = vi.spyOn(Date, 'now').mockReturnValue(Date.parse('2026-07-20T15:00:00Z'));
    try {
      const saved: string[] = [];
      for (let i = 0; i < 8; i++)
        saved.push(await createPoolTest(db, poolIds[0], test('2026-07-20')));
      const read = await readPoolsWithTests(db, collectionId);
      expect(read[0].tests.map((t) => t.localId)).toEqual(saved);
    } finally {
      clock.mockRestore();
    }
  });

  it('reads a collection’s pools in the order they were made, each with its tests in order', async () => {
    const first = await createPoolTest(db, poolIds[1], test('2026-07-20'));
    const retest = await createPoolTest(db, poolIds[1], test('2026-07-20'));
    const read = await readPoolsWithTests(db, collectionId);
    expect(read.map((r) => r.pool.localId)).toEqual(poolIds);
    expect(read.map((r) => r.tests.map((t) => t.localId))).toEqual([[], [first, retest], []]);
  });

  it('reads a site’s collections newest first, at most the limit', async () => {
    const later = await createCollection(
      db,
      siteId,
      makeCollection({ collection_date: '2026-07-21T06:30:00-07:00' }),
    );
    const read = await readSiteCollections(db, siteId, 10);
    expect(read.map((c) => c.localId)).toEqual([later, collectionId]);
    expect((await readSiteCollections(db, siteId, 1)).map((c) => c.localId)).toEqual([later]);
  });
});
