import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { inject } from 'vitest';

/**
 * A new TRAPLINE_DATA_DIR in which both embedded databases already exist, migrated and empty: a
 * copy of the run's template (test/pglite-template.ts). `npm start` on it seeds, writes its keys
 * and demo credentials and serves as on a first start, without the two initdbs (~8 s of CPU,
 * 4 s of a start's 6). For tests of what a start does, not of the first start itself (those
 * keep an empty directory). Delete it as any temp directory. Outside Vitest, an empty one.
 */
export function migratedDataDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const template = templateDir();
  if (!template) return dir;
  // Never a lock file: a copy of one would name a process that is not this directory's.
  cpSync(template, dir, {
    recursive: true,
    filter: (src) => basename(src) !== 'pgdata.lock',
  });
  return dir;
}

/** The run's template, or none outside Vitest (`npm run chaos`): then a start makes its own. */
function templateDir(): string | undefined {
  try {
    return inject('dataDirTemplate');
  } catch {
    return undefined;
  }
}
