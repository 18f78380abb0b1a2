import type { DBCore, DBCoreTable, Middleware } from 'dexie';
import type { TraplineDb } from '../../../../src/client/db/database';

export type OutboxReads = {
  /** Reads of the whole outbox (no key range: toArray, orderBy().toArray()). */
  full: number;
  /** Ranged or indexed reads (where(...), above(...)). */
  ranged: number;
  /** Entries (or keys) the reads returned or walked, together. */
  rows: number;
  /**
   * Counts of the whole outbox (count() with no range). IndexedDB walks every entry for one, in
   * Chromium's backend as in fake-indexeddb: per send, that is a long queue drained in square time.
   */
  fullCounts: number;
};

/** DBCore's "no range" (DBCoreRangeType.Any, a const enum that isolated modules cannot import). */
const RANGE_ANY = 3;

/**
 * Counts what is read from the outbox, at the database layer (Dexie's DBCore), whoever reads it:
 * the drain, the status counts, the repositories. Install before the database is first opened.
 */
export function countOutboxReads(db: TraplineDb): OutboxReads {
  const reads: OutboxReads = { full: 0, ranged: 0, rows: 0, fullCounts: 0 };
  const middleware: Middleware<DBCore> = {
    stack: 'dbcore',
    name: 'countOutboxReads',
    create: (down) => ({
      ...down,
      table(name) {
        const table = down.table(name);
        if (name !== 'outbox') return table;
        const counted: DBCoreTable = {
          ...table,
          async query(req) {
            const res = await table.query(req);
            if ((req.query.range.type as number) === RANGE_ANY) reads.full += 1;
            else reads.ranged += 1;
            reads.rows += res.result.length;
            return res;
          },
          count(req) {
            if ((req.query.range.type as number) === RANGE_ANY) reads.fullCounts += 1;
            return table.count(req);
          },
          // Filtered reads, modify() and key walks go by cursor: each step is a row read.
          async openCursor(req) {
            if ((req.query.range.type as number) === RANGE_ANY) reads.full += 1;
            else reads.ranged += 1;
            const cursor = await table.openCursor(req);
            if (cursor) {
              const start = cursor.start.bind(cursor);
              cursor.start = (onNext) =>
                start(() => {
                  reads.rows += 1;
                  onNext();
                });
            }
            return cursor;
          },
        };
        return counted;
      },
    }),
  };
  db.use(middleware);
  return reads;
}
