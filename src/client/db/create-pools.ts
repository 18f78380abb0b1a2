import type { TraplineDb } from './database';
import type { PoolData } from './create-pool';
import { createRecords } from './create-records';

/** Saves several pools of one collection in ONE transaction: all of them or none. */
export function createPools(
  db: TraplineDb,
  collectionLocalId: string,
  pools: PoolData[],
  /** The key of the form draft they were typed in, deleted with them (see createRecords). */
  draftKey?: string,
): Promise<string[]> {
  return createRecords(
    db,
    'pool',
    pools.map((data) => ({ data, parentLocalId: collectionLocalId })),
    draftKey,
  );
}
