import { PGlite } from '@electric-sql/pglite';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { migrate } from '../src/server/db/migrate';
import { MIGRATIONS } from '../src/server/db/migrations';
import { pgliteDatabase } from '../src/server/db/pglite-database';

declare module 'vitest' {
  export interface ProvidedContext {
    /** File holding a dump of a freshly migrated embedded database (see below). */
    pgliteTemplate: string;
    /** The same before any migration: a fresh initdb, for tests of migrating (see below). */
    pgliteEmptyTemplate: string;
    /** A TRAPLINE_DATA_DIR holding both embedded databases, migrated and empty (see below). */
    dataDirTemplate: string;
  }
}

/**
 * Vitest global setup: migrate one embedded database per run and dump its data directory, so
 * each test file starts its PGlite from the dump instead of running initdb and every migration
 * again (about 4 s a file on this machine, once per file, ~60 files). The database a test gets is
 * the same: the dump is named by the migrations' text, PGlite's version and how it is made
 * (TEMPLATE_RECIPE), so a changed migration makes a new one, and the test helper still runs
 * `migrate` on what it loads.
 */
export default async function setup(project: TestProject): Promise<void> {
  const pglite = JSON.parse(
    await readFile(join('node_modules', '@electric-sql', 'pglite', 'package.json'), 'utf8'),
  ) as { version: string };
  const hash = createHash('sha256')
    .update(pglite.version)
    .update(JSON.stringify(MIGRATIONS))
    .update(TEMPLATE_RECIPE)
    .digest('hex')
    .slice(0, 16);
  const file = join(tmpdir(), `trapline-pglite-template-${hash}.tar`);
  const empty = join(tmpdir(), `trapline-pglite-empty-${hash}.tar`);
  const dataDir = join(tmpdir(), `trapline-data-dir-${hash}`);
  await makeDump(file, { migrated: true });
  // Tests of migrating an older database start from no migrations at all: each made its own
  // with initdb, ~1.8 s of CPU where unpacking this takes ~0.2.
  await makeDump(empty, { migrated: false });
  await makeDataDir(dataDir, file);
  project.provide('pgliteTemplate', file);
  project.provide('pgliteEmptyTemplate', empty);
  project.provide('dataDirTemplate', dataDir);
}

/**
 * Every test file's database unpacks this dump into memory (~150 a run in the server project
 * alone), so it holds only what a test's database uses. A fresh data directory is 42 MB: a 16 MB
 * WAL segment and three databases of which the app uses one (`postgres`). Made with 1 MB WAL
 * segments and without the template databases (only CREATE DATABASE reads them, which no test
 * runs on PGlite), it is 15 MB, and a test's database opens in ~0.24 s of CPU instead of ~0.40.
 * Neither changes what the app's queries see. `npm start` makes its own databases with PGlite's
 * defaults; the data directories copied from this dump for spawned starts
 * (test/helpers/migrated-data-dir.ts) open the same way.
 */
const TEMPLATE_RECIPE = 'wal-segsize=1; without template0, template1';

async function makeDump(file: string, { migrated }: { migrated: boolean }): Promise<void> {
  if (existsSync(file)) return;
  const pg = await PGlite.create({ initDbStartParams: ['--wal-segsize=1'] });
  if (migrated) await migrate(pgliteDatabase(pg));
  await pg.exec(
    "update pg_database set datistemplate = false where datname in ('template0', 'template1')",
  );
  await pg.exec('drop database template0');
  await pg.exec('drop database template1');
  // The WAL since initdb is replayed by no one: a checkpoint leaves the dump's one segment clean.
  await pg.exec('checkpoint');
  const dump = await pg.dumpDataDir('none');
  await pg.close();
  // Written aside and renamed: a concurrent run never reads half a file.
  const partial = `${file}.${process.pid}.partial`;
  await writeFile(partial, Buffer.from(await dump.arrayBuffer()));
  await rename(partial, file);
}

/**
 * The same for the tests that start `npm start` (or the records CLI) as a process: a data
 * directory as a first start leaves it before it seeds, both embedded databases (the records
 * service's in pgdata/, the BFF's in bff/pgdata/) unpacked from the dump above, which PGlite opens
 * as it opens its own. A copy (test/helpers/migrated-data-dir.ts) spares each such start its two
 * initdbs (~8 s of CPU); unpacking costs a fraction of a second, where making both with
 * `openDatabase` held every worker back ~8 s at the start of a run on a fresh machine.
 */
async function makeDataDir(dir: string, dump: string): Promise<void> {
  if (existsSync(dir)) return;
  const partial = `${dir}.${process.pid}.partial`;
  await rm(partial, { recursive: true, force: true });
  for (const pgdata of [join(partial, 'pgdata'), join(partial, 'bff', 'pgdata')]) {
    await mkdir(pgdata, { recursive: true });
    execFileSync('tar', ['-xf', dump, '-C', pgdata]);
  }
  await rename(partial, dir).catch(async (err: unknown) => {
    // Another run made it meanwhile: theirs is the same.
    if (!existsSync(dir)) throw err;
    await rm(partial, { recursive: true, force: true });
  });
}
