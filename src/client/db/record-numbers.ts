import type { CollectionRow, PoolRow } from './database';

/*
 * The numbers the records service gives a collection (`collection_num`) and a pool (`pool_num`):
 * what a technician writes on the vial and reads to the lab. The tablet never makes one up; it
 * reads them from the server's last answer about the record (`server`: the create's
 * acknowledgement, an update's answer or a pull), which the sync engine stores on the row in the
 * same transaction that settles its entry. Until then a record has no number (null).
 */

const numberIn = (value: unknown): number | null => {
  // The contract's numbers are integers; a hosted service may send them as numeric strings.
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : null;
};

/** The pool's number from the server, or null before the server has answered for it. */
export function poolNumberOf(pool: Pick<PoolRow, 'server'>): number | null {
  return numberIn(pool.server?.pool_num);
}

/** The collection's number from the server, or null before the server has answered for it. */
export function collectionNumberOf(collection: Pick<CollectionRow, 'server'>): number | null {
  return numberIn(collection.server?.collection_num);
}
