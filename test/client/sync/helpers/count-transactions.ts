import type { DBCore, Middleware } from 'dexie';
import type { TraplineDb } from '../../../../src/client/db/database';

/**
 * Counts the read-write transactions opened on the database, at Dexie's DBCore (each is one
 * commit to disk for IndexedDB). Install before the database is first opened.
 */
export function countWriteTransactions(db: TraplineDb): { readwrite: number } {
  const counts = { readwrite: 0 };
  const middleware: Middleware<DBCore> = {
    stack: 'dbcore',
    name: 'countWriteTransactions',
    create: (down) => ({
      ...down,
      transaction(stores, mode, options) {
        if (mode === 'readwrite') counts.readwrite += 1;
        return down.transaction(stores, mode, options);
      },
    }),
  };
  db.use(middleware);
  return counts;
}
