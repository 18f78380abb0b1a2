import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Database } from './database';
import { lockDataDir } from './data-dir-lock';
import { migrate } from './migrate';
import { openPglite } from './pglite-database';
import { openPostgres } from './postgres-database';
import { serveSnapshots } from './snapshot-socket';

export type DatabaseConfig = {
  /** PostgreSQL connection string; when unset the embedded database is used. */
  databaseUrl?: string;
  /** Directory of the embedded database; `undefined` means in memory (tests). */
  dataDir?: string;
  /**
   * The embedded database's shared_buffers (PGlite's default 128MB when unset), which PGlite
   * allocates and zeroes at every start: a database that stays small needs far less.
   */
  sharedBuffers?: string;
};

/** Opens the configured database and applies pending migrations. */
export async function openDatabase(config: DatabaseConfig): Promise<Database> {
  let db: Database;
  if (config.databaseUrl) {
    db = await openPostgres(config.databaseUrl);
  } else if (config.dataDir) {
    mkdirSync(config.dataDir, { recursive: true });
    // Before PGlite touches the files: another process may have them open (data-dir-lock.ts).
    const release = lockDataDir(config.dataDir);
    const pgdata = join(config.dataDir, 'pgdata');
    let pglite: Database;
    try {
      pglite = await openPglite(pgdata, { sharedBuffers: config.sharedBuffers });
    } catch (err) {
      release();
      throw fileSystemError(err, pgdata);
    }
    db = {
      ...pglite,
      async close() {
        try {
          await pglite.close();
        } finally {
          release();
        }
      },
    };
  } else {
    db = await openPglite(undefined, { sharedBuffers: config.sharedBuffers });
  }
  try {
    await migrate(db);
  } catch (err) {
    // A refused or failed migration: close, so the lock and connections go with this start.
    await db.close().catch(() => undefined);
    throw config.dataDir && !config.databaseUrl
      ? fileSystemError(err, join(config.dataDir, 'pgdata'))
      : err;
  }
  if (config.dataDir && !config.databaseUrl) {
    // Whoever holds the directory's database answers `npm run records -- backup` for it.
    const stopSnapshots = await serveSnapshots(config.dataDir, db);
    const close = db.close.bind(db);
    db = {
      ...db,
      async close() {
        await stopSnapshots();
        await close();
      },
    };
  }
  return db;
}

/** PGlite's file system's error numbers (Emscripten's) that a data directory meets. */
const ERRNO: Record<number, string> = {
  2: 'EACCES: permission denied (files of another user? Trapline once started with sudo?)',
  19: 'EDQUOT: disk quota exceeded',
  29: 'EIO: input/output error',
  44: 'ENOENT: no such file or directory',
  51: 'ENOSPC: no space left on the disk',
  54: 'ENOTDIR: a file stands where a directory should be',
  63: 'EPERM: operation not permitted',
  69: 'EROFS: read-only file system',
};

/**
 * PGlite throws its file system's bare `ErrnoError { errno }`, not an Error: printed as it is,
 * a start said "[object Object]". Say which directory and what is wrong with it.
 */
function fileSystemError(err: unknown, dir: string): unknown {
  const { name, errno } = (err ?? {}) as { name?: unknown; errno?: unknown };
  if (err instanceof Error || name !== 'ErrnoError' || typeof errno !== 'number') return err;
  const what = ERRNO[errno] ?? `file system error ${errno}`;
  return new Error(`Cannot use the embedded database in ${dir}: ${what}`, { cause: err });
}
