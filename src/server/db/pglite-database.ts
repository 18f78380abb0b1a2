import { PGlite } from '@electric-sql/pglite';
import type { Database, Queryable, Row } from './database';

/**
 * PGlite runs one statement at a time on one connection. A transaction must therefore own the
 * connection from BEGIN to COMMIT: every query and transaction goes through one FIFO mutex.
 */
export async function openPglite(
  dataDir: string | undefined,
  options: { loadDataDir?: Blob } = {},
): Promise<Database> {
  // loadDataDir: start from a dump of another database's data directory (dumpDataDir) instead
  // of running initdb, which is most of the seconds a fresh PGlite takes.
  return pgliteDatabase(
    dataDir ? await PGlite.create(dataDir, options) : await PGlite.create({ ...options }),
  );
}

/** The Database over an open PGlite instance (which it then owns: close() closes it). */
export function pgliteDatabase(pg: PGlite): Database {
  let tail: Promise<unknown> = Promise.resolve();
  function exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = tail.then(fn, fn);
    tail = run.catch(() => undefined);
    return run;
  }
  const direct: Queryable = {
    async query<T extends Row>(sql: string, params: readonly unknown[] = []) {
      const res = await pg.query<T>(sql, params as unknown[]);
      return { rows: res.rows };
    },
    async exec(sql: string) {
      await pg.exec(sql);
    },
  };
  return {
    kind: 'pglite',
    query: (sql, params) => exclusive(() => direct.query(sql, params)),
    exec: (sql) => exclusive(() => direct.exec(sql)),
    transaction: (fn) =>
      exclusive(async () => {
        await pg.exec('BEGIN');
        try {
          const result = await fn(direct);
          await pg.exec('COMMIT');
          return result;
        } catch (err) {
          await pg.exec('ROLLBACK');
          throw err;
        }
      }),
    close: () => exclusive(() => pg.close()),
  };
}
