import type { PoolCreate } from '#shared';
import type { TraplineDb } from './database';
import { createRecords } from './create-records';

/** The pool payload as the tablet keeps it: the collection is named by its localId instead. */
export type PoolData = Omit<PoolCreate, 'collection'>;

/** Saves one pool of a collection (by localId) with its create entry; returns its localId. */
export async function createPool(
  db: TraplineDb,
  collectionLocalId: string,
  data: PoolData,
): Promise<string> {
  const [localId] = await createRecords(db, 'pool', [{ data, parentLocalId: collectionLocalId }]);
  return localId;
}
