import { byCreation } from './creation-order';
import type { CollectionRow, PoolRow, PoolTestRow, TraplineDb } from './database';

/**
 * The record screens' reads, one named function each: the Dexie counterpart of TanStack Query's
 * query options. A screen runs one inside `useLiveQuery(() => readX(db, id), [db, id])`, which
 * re-runs it when any table it read changes. A record not on this tablet is null; a deleted
 * child is left out of its parent's lists (a deleted record itself is returned: its screen says
 * so).
 */

/** The pools drawn from a collection that are not deleted, in no particular order. */
export async function readPoolsOf(db: TraplineDb, collectionLocalId: string): Promise<PoolRow[]> {
  const pools = await db.pools.where('parentLocalId').equals(collectionLocalId).toArray();
  return pools.filter((p) => !p.deleted);
}

/** A pool and the collection it was drawn from. */
export async function readPoolLineage(
  db: TraplineDb,
  poolLocalId: string,
): Promise<{ pool: PoolRow | null; collection: CollectionRow | null }> {
  const pool = (await db.pools.get(poolLocalId)) ?? null;
  const collection = pool?.parentLocalId
    ? ((await db.collections.get(pool.parentLocalId)) ?? null)
    : null;
  return { pool, collection };
}

/** A pool test, its pool and that pool's collection. */
export async function readPoolTestLineage(
  db: TraplineDb,
  testLocalId: string,
): Promise<{ test: PoolTestRow | null; pool: PoolRow | null; collection: CollectionRow | null }> {
  const test = (await db.poolTests.get(testLocalId)) ?? null;
  const lineage = test?.parentLocalId
    ? await readPoolLineage(db, test.parentLocalId)
    : { pool: null, collection: null };
  return { test, ...lineage };
}

/** A pool to edit: its collection, and the collection's other pools (a pool's checks read them). */
export async function readPoolForEdit(
  db: TraplineDb,
  poolLocalId: string,
): Promise<{ pool: PoolRow | null; collection: CollectionRow | null; others: PoolRow[] }> {
  const { pool, collection } = await readPoolLineage(db, poolLocalId);
  const siblings = pool?.parentLocalId ? await readPoolsOf(db, pool.parentLocalId) : [];
  return { pool, collection, others: siblings.filter((p) => p.localId !== poolLocalId) };
}

/** A collection and the pools already drawn from it (the pools screen). */
export async function readCollectionForPools(
  db: TraplineDb,
  collectionLocalId: string,
): Promise<{ collection: CollectionRow | null; pools: PoolRow[] }> {
  const collection = (await db.collections.get(collectionLocalId)) ?? null;
  return { collection, pools: await readPoolsOf(db, collectionLocalId) };
}

/**
 * A collection's pools and each pool's tests, both in the order they were made: equal pools and
 * same-day re-tests are told apart by their place.
 */
export async function readPoolsWithTests(
  db: TraplineDb,
  collectionLocalId: string,
): Promise<{ pool: PoolRow; tests: PoolTestRow[] }[]> {
  const pools = await readPoolsOf(db, collectionLocalId);
  const tests = pools.length
    ? await db.poolTests
        .where('parentLocalId')
        .anyOf(pools.map((p) => p.localId))
        .toArray()
    : [];
  return pools.sort(byCreation).map((pool) => ({
    pool,
    tests: tests.filter((t) => t.parentLocalId === pool.localId && !t.deleted).sort(byCreation),
  }));
}

/** A site's collections, newest first: the first `limit`. */
export async function readSiteCollections(
  db: TraplineDb,
  siteLocalId: string,
  limit: number,
): Promise<CollectionRow[]> {
  return (await db.collections.where('parentLocalId').equals(siteLocalId).toArray())
    .filter((c) => !c.deleted)
    .sort((a, b) => Date.parse(b.collectionDate) - Date.parse(a.collectionDate))
    .slice(0, limit);
}
