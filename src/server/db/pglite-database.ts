import { PGlite } from '@electric-sql/pglite';
import type { Database, Queryable, Row } from './database';
import { preparedStatements } from './pglite-prepared';

/**
 * PGlite runs one statement at a time on one connection. A transaction must therefore own the
 * connection from BEGIN to COMMIT: every query and transaction goes through one FIFO mutex.
 */
export async function openPglite(
  dataDir: string | undefined,
  { loadDataDir, sharedBuffers }: { loadDataDir?: Blob; sharedBuffers?: string } = {},
): Promise<Database> {
  // loadDataDir: start from a dump of another database's data directory (dumpDataDir) instead
  // of running initdb, which is most of the seconds a fresh PGlite takes.
  // sharedBuffers: PGlite allocates and zeroes all of shared_buffers (128MB by default) when it
  // starts; a database that stays small (a test's) starts in half the time with 16MB.
  const startParams = sharedBuffers
    ? [...PGlite.defaultStartParams, '-c', `shared_buffers=${sharedBuffers}`]
    : undefined;
  return pgliteDatabase(await PGlite.create({ dataDir, loadDataDir, startParams }));
}

/** The Database over an open PGlite instance (which it then owns: close() closes it). */
export function pgliteDatabase(pg: PGlite): Database {
  let tail: Promise<unknown> = Promise.resolve();
  function exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = tail.then(fn, fn);
    tail = run.catch(() => undefined);
    return run;
  }
  const prepared = preparedStatements(pg);
  const exec = async (sql: string) => {
    await pg.exec(sql);
  };
  const inTransaction: Queryable = {
    query: <T extends Row>(sql: string, params: readonly unknown[] = []) =>
      prepared.query<T>(sql, params, true),
    exec,
  };
  return {
    kind: 'pglite',
    query: (sql, params = []) => exclusive(() => prepared.query(sql, params, false)),
    exec: (sql) => exclusive(() => exec(sql)),
    transaction: (fn) =>
      exclusive(async () => {
        await pg.exec('BEGIN');
        try {
          const result = await fn(inTransaction);
          await pg.exec('COMMIT');
          return result;
        } catch (err) {
          await pg.exec('ROLLBACK');
          throw err;
        }
      }),
    // In the same queue as every transaction: never between a BEGIN and its COMMIT.
    dumpDataDir: () =>
      exclusive(async () => {
        await pg.exec('CHECKPOINT');
        return pg.dumpDataDir('gzip');
      }),
    close: () => exclusive(() => pg.close()),
  };
}
