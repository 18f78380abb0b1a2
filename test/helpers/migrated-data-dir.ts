import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { providedOrNone } from './provided';

/**
 * A new TRAPLINE_DATA_DIR in which both embedded databases already exist, migrated and empty: a
 * copy of the run's template (test/pglite-template.ts). `npm start` on it seeds, writes its keys
 * and demo credentials and serves as on a first start, without the two initdbs (~8 s of CPU,
 * 4 s of a start's 6). For tests of what a start does, not of the first start itself (those
 * keep an empty directory). Delete it as any temp directory. Outside Vitest, an empty one.
 */
export function migratedDataDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const template = providedOrNone('dataDirTemplate');
  // The template is unpacked from a dump and never opened: it holds no lock file to copy.
  if (template) cpSync(template, dir, { recursive: true });
  return dir;
}
