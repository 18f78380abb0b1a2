import type { CollectionRow, PoolRow, PoolTestRow, TraplineDb } from './database';

/**
 * A pool and the collection it was drawn from, each null when not on this tablet. Read inside a
 * live query, it re-runs when either changes.
 */
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

/** A pool test, its pool and that pool's collection, each null when not on this tablet. */
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
