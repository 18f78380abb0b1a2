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
    /** A TRAPLINE_DATA_DIR holding both embedded databases, migrated and empty (see below). */
    dataDirTemplate: string;
  }
}

/**
 * Vitest global setup: migrate one embedded database per run and dump its data directory, so
 * each test file starts its PGlite from the dump instead of running initdb and every migration
 * again (about 4 s a file on this machine, once per file, ~60 files). The database a test gets is
 * the same: the dump is named by the migrations' text and PGlite's version, so a changed
 * migration makes a new one, and the test helper still runs `migrate` on what it loads.
 */
export default async function setup(project: TestProject): Promise<void> {
  const pglite = JSON.parse(
    await readFile(join('node_modules', '@electric-sql', 'pglite', 'package.json'), 'utf8'),
  ) as { version: string };
  const hash = createHash('sha256')
    .update(pglite.version)
    .update(JSON.stringify(MIGRATIONS))
    .digest('hex')
    .slice(0, 16);
  const file = join(tmpdir(), `trapline-pglite-template-${hash}.tar`);
  const dataDir = join(tmpdir(), `trapline-data-dir-${hash}`);
  await makeDump(file);
  await makeDataDir(dataDir, file);
  project.provide('pgliteTemplate', file);
  project.provide('dataDirTemplate', dataDir);
}

async function makeDump(file: string): Promise<void> {
  if (existsSync(file)) return;
  const pg = await PGlite.create();
  await migrate(pgliteDatabase(pg));
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
