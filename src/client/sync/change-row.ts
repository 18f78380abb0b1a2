import type { Table, UpdateSpec } from 'dexie';

/*
 * The drain writes acknowledgements for every entry, so each IndexedDB request counts:
 * - a record row is changed with `changeRow` (Dexie's bulkUpdate: read and write, two IndexedDB
 *   requests), not `update` (which first lists the keys it will modify: three). A plain `put`
 *   would be one, but it hides the old row from Dexie's change tracking, and every live query
 *   on the table (the screens' lists) would then run again after each write;
 * - an outbox entry read in the transaction is written back whole with `put`: what watches the
 *   outbox (the sync engine's counts, the sync screen) reads all of it after any change anyway.
 */

/**
 * Changes some fields of one row. Returns the number of rows changed: 0 when there is no row of
 * that key.
 */
export function changeRow<T, K extends string>(
  table: Table<T, K>,
  key: K,
  changes: Partial<T>,
): Promise<number> {
  return table.bulkUpdate([{ key, changes: changes as UpdateSpec<T> }]);
}
