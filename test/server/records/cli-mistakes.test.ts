import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runRecordsCli } from '../../helpers/records-cli';

/**
 * What an IT person meets typing `npm run records -- agency-token …` wrongly: a wrong
 * TRAPLINE_DATA_DIR (the server runs with another one), a misspelt subcommand, a bad flag. Each
 * says what is wrong in a line and creates nothing: no empty database where none was.
 */
const root = mkdtempSync(join(tmpdir(), 'trapline-cli-mistakes-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const cli = (dataDir: string, ...args: string[]) =>
  runRecordsCli({ TRAPLINE_DATA_DIR: dataDir, DATABASE_URL: '' }, ...args);

describe('npm run records -- agency-token, typed wrongly', () => {
  it('on a data directory holding no database says so, and creates none there', async () => {
    const wrongDir = join(root, 'not-the-servers-dir');
    const res = await cli(wrongDir, 'agency-token', 'create', '--agency', '1');
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`No Trapline database in ${wrongDir}`);
    expect(res.stderr).toContain('TRAPLINE_DATA_DIR');
    expect(existsSync(wrongDir)).toBe(false);
  }, 60_000);

  it('a misspelt subcommand or a bad flag prints the usage, exit 2, and creates nothing', async () => {
    const dir = join(root, 'fresh');
    for (const args of [
      ['agency-token', 'lst'],
      ['agency-token', 'create', '--agency', 'one'],
      ['agency-token', 'revoke'],
    ]) {
      const res = await cli(dir, ...args);
      expect({ args, code: res.code }).toEqual({ args, code: 2 });
      expect(res.stderr).toContain('Usage:');
      expect(existsSync(dir)).toBe(false);
    }
  }, 60_000);
});
