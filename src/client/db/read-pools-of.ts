import type { PoolRow, TraplineDb } from './database';

/** The pools drawn from a collection that are not deleted, in no particular order. */
export async function readPoolsOf(db: TraplineDb, collectionLocalId: string): Promise<PoolRow[]> {
  const pools = await db.pools.where('parentLocalId').equals(collectionLocalId).toArray();
  return pools.filter((p) => !p.deleted);
}
