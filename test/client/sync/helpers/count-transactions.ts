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

/**
 * Counts the writes (DBCore mutate requests: put, add, delete) to the record tables (sites,
 * collections, pools, poolTests), whoever makes them. Install before the database is first opened.
 */
export function countRecordWrites(db: TraplineDb): { writes: number } {
  const counts = { writes: 0 };
  const recordTables = new Set(['sites', 'collections', 'pools', 'poolTests']);
  const middleware: Middleware<DBCore> = {
    stack: 'dbcore',
    name: 'countRecordWrites',
    create: (down) => ({
      ...down,
      table(name) {
        const table = down.table(name);
        if (!recordTables.has(name)) return table;
        return {
          ...table,
          mutate(req) {
            counts.writes += 1;
            return table.mutate(req);
          },
        };
      },
    }),
  };
  db.use(middleware);
  return counts;
}
