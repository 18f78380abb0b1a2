import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import type { Database } from '../../../src/server/db/database';
import { migrate } from '../../../src/server/db/migrate';
import { openDatabase } from '../../../src/server/db/open-database';
import { openPglite } from '../../../src/server/db/pglite-database';
import { providedOrNone } from '../../helpers/provided';

/**
 * A fresh, migrated database for one test file: in-memory PGlite by default, or a new database
 * on the PostgreSQL server named by `TRAPLINE_TEST_DATABASE_URL` (CI runs the suite on both).
 * The returned `close` drops what it created.
 */
export async function openTestDatabase(): Promise<Database> {
  const adminUrl = process.env.TRAPLINE_TEST_DATABASE_URL;
  if (!adminUrl) return openMigratedPglite();
  const name = `trapline_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const db = await openDatabase({ databaseUrl: url.toString() });
  return {
    ...db,
    kind: db.kind,
    query: db.query.bind(db),
    exec: db.exec.bind(db),
    transaction: db.transaction.bind(db),
    async close() {
      await db.close();
      const a = new pg.Client({ connectionString: adminUrl });
      await a.connect();
      await a.query(`drop database if exists ${name} with (force)`);
      await a.end();
    },
  };
}

/**
 * A fresh in-memory PGlite, started from the run's dump of a freshly migrated database
 * (test/pglite-template.ts) rather than initdb plus every migration: the same database, seconds
 * sooner. `migrate` still runs, and finds nothing to do unless the dump is stale.
 * 16MB of shared buffers, not PGlite's 128MB: a test's database stays far smaller, and zeroing
 * 128MB at every start was most of the start's page faults (72k -> 30k, 1.2 -> 0.7 s).
 */
export async function openMigratedPglite(): Promise<Database> {
  const template = providedOrNone('pgliteTemplate');
  if (!template) return openDatabase({});
  const db = await openFromDump(template);
  await migrate(db);
  return db;
}

/**
 * A fresh in-memory PGlite with no migration applied, for tests of migrating: started from the
 * run's dump of a fresh initdb (test/pglite-template.ts), as a new database is before its first
 * migration.
 */
export async function openEmptyPglite(): Promise<Database> {
  const template = providedOrNone('pgliteEmptyTemplate');
  return template ? openFromDump(template) : openPglite(undefined);
}

/** An in-memory PGlite unpacked from the dump in the file `template`. */
async function openFromDump(template: string): Promise<Database> {
  return openPglite(undefined, {
    loadDataDir: await templateBlob(template),
    sharedBuffers: TEST_SHARED_BUFFERS,
  });
}

const TEST_SHARED_BUFFERS = '16MB';

/** Each dump, read once per worker (test files share their worker's modules) and not per file. */
const templates = new Map<string, Promise<Blob>>();
function templateBlob(path: string): Promise<Blob> {
  let template = templates.get(path);
  if (!template) {
    template = readFile(path).then((bytes) => new SharedBytes(bytes));
    templates.set(path, template);
  }
  return template;
}

/**
 * A Blob that hands every reader the same bytes. PGlite reads a dump with `arrayBuffer()` and
 * copies each file it unpacks into its own memory (Emscripten's FS.writeFile copies unless told
 * it may own the array), so the bytes are only read: one copy per worker serves every file's
 * database, where a plain Blob's arrayBuffer() copied the whole dump again for each (55 ms of
 * CPU a database at 42 MB, in Node 20's chunked Blob reader).
 */
class SharedBytes extends Blob {
  readonly #bytes: ArrayBuffer;
  constructor(bytes: Uint8Array) {
    super();
    const own = new Uint8Array(bytes.byteLength);
    own.set(bytes);
    this.#bytes = own.buffer;
  }
  override get size(): number {
    return this.#bytes.byteLength;
  }
  override arrayBuffer(): Promise<ArrayBuffer> {
    return Promise.resolve(this.#bytes);
  }
}
