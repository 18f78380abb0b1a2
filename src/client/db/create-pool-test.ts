import type { PoolTestCreate } from '#shared';
import type { TraplineDb } from './database';
import { createRecords } from './create-records';

/** The pool test payload as the tablet keeps it: the pool is named by its localId instead. */
export type PoolTestData = Omit<PoolTestCreate, 'pool'>;

/** Saves a pool test result of a pool (by localId) with its create entry; returns its localId. */
export async function createPoolTest(
  db: TraplineDb,
  poolLocalId: string,
  data: PoolTestData,
  /** The key of the form draft it was typed in, deleted with it (see createRecords). */
  draftKey?: string,
): Promise<string> {
  const [localId] = await createRecords(
    db,
    'poolTest',
    [{ data, parentLocalId: poolLocalId }],
    draftKey,
  );
  return localId;
}
