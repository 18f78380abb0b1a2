import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { migratedDataDir } from '../../../helpers/migrated-data-dir';
import { runRecordsCli } from '../../../helpers/records-cli';
import { killSpawned, spawnMain, type SpawnedMain } from '../../../helpers/spawned-main';
import { makeSite } from '../factories/make-site';
import { cookieFrom, http } from '../../bff/helpers/http';

/**
 * The README's backup drill, as an office does it: Trapline runs (`npm start`, both embedded
 * databases held by it), sites are entered through the BFF, `npm run records -- backup` takes a
 * snapshot, more sites are entered, Trapline stops, `restore` fills an empty data directory, and
 * Trapline started on it holds exactly what the backup held: the same sites, field for field, and
 * the BFF's idempotency journal of that moment (a tablet retrying a create the backup holds gets
 * the same record, not a second one).
 */
const PASSWORD = 'backup-drill-pw';
const temp: string[] = [];
const running: SpawnedMain[] = [];
afterAll(async () => {
  for (const m of running) await killSpawned(m);
  for (const d of temp) rmSync(d, { recursive: true, force: true });
});
const scratch = () => {
  const d = mkdtempSync(join(tmpdir(), 'trapline-backup-'));
  temp.push(d);
  return d;
};
const cli = (dataDir: string, ...args: string[]) =>
  runRecordsCli({ TRAPLINE_DATA_DIR: dataDir, DATABASE_URL: '' }, ...args);

async function start(dataDir: string) {
  const main = spawnMain({ TRAPLINE_DATA_DIR: dataDir, TRAPLINE_DEMO_PASSWORD: PASSWORD });
  running.push(main);
  const url = (await main.url()).replace(/\/$/, '');
  const signIn = await http(`${url}/api/session`, {
    method: 'POST',
    headers: { 'x-csrf': '1', origin: url },
    body: { username: 'demo-manager', password: PASSWORD },
  });
  expect(signIn.status, signIn.text).toBe(200);
  const cookie = cookieFrom(signIn) ?? '';
  const createSite = (body: Record<string, unknown>, key: string = randomUUID()) =>
    http(`${url}/api/v1/site`, {
      method: 'POST',
      headers: { 'x-csrf': '1', origin: url, cookie, 'idempotency-key': key },
      body,
    });
  const sites = async () =>
    (await http(`${url}/api/v1/site?pageSize=1000`, { headers: { 'x-csrf': '1', cookie } })).json<{
      rows: Record<string, unknown>[];
      count: number;
    }>();
  const stop = async () => {
    main.child.kill('SIGTERM');
    expect(await main.exited, main.output()).toBe(0);
  };
  return { url, cookie, createSite, sites, stop };
}

describe('backup and restore drill (README "Backups")', () => {
  let backupFile = '';

  it('restores exactly what the running Trapline held when backed up', async () => {
    const dataDir = migratedDataDir('trapline-backup-live-');
    temp.push(dataDir);
    backupFile = join(scratch(), 'trapline.backup');

    const before = await start(dataDir);
    const key = randomUUID();
    const kept = makeSite({ name: 'Backed-up site' });
    const created = await before.createSite(kept, key);
    expect(created.status, created.text).toBe(201);
    for (let i = 0; i < 3; i++) expect((await before.createSite(makeSite())).status).toBe(201);
    const atBackup = await before.sites();

    const backup = await cli(dataDir, 'backup', backupFile);
    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.stdout).toContain("the BFF's (sessions, idempotency journal)");

    const later = await before.createSite(makeSite({ name: 'Entered after the backup' }));
    expect(later.status).toBe(201);
    expect((await before.sites()).count).toBe(atBackup.count + 1);
    await before.stop();

    const restoredDir = join(scratch(), 'restored');
    const restore = await cli(restoredDir, 'restore', backupFile);
    expect(restore.code, restore.stderr).toBe(0);

    const after = await start(restoredDir);
    const restored = await after.sites();
    expect(restored.count).toBe(atBackup.count);
    expect(restored.rows).toEqual(atBackup.rows);
    expect(restored.rows.map((r) => r.name)).not.toContain('Entered after the backup');
    // The journal came back with its records: the tablet's retry of a create the backup holds
    // is answered with that record, not made twice.
    const retry = await after.createSite(kept, key);
    expect(retry.json()).toEqual(created.json());
    expect((await after.sites()).count).toBe(atBackup.count);
    // The session key is not in the backup: the old session is signed out, once.
    const old = await http(`${after.url}/api/session`, {
      headers: { 'x-csrf': '1', cookie: before.cookie },
    });
    expect(old.status).toBe(401);
    await after.stop();
  }, 600_000);

  it('backs up a stopped Trapline by opening its data directory itself', async () => {
    const dataDir = migratedDataDir('trapline-backup-stopped-');
    temp.push(dataDir);
    const file = join(scratch(), 'stopped.backup');
    const backup = await cli(dataDir, 'backup', file);
    expect(backup.code, backup.stderr).toBe(0);
    const restoredDir = join(scratch(), 'restored');
    expect((await cli(restoredDir, 'restore', file)).code).toBe(0);
    expect(readdirSync(restoredDir).sort()).toEqual(['bff', 'pgdata']);
  }, 300_000);

  it('refuses, saying why and writing nothing: a non-empty target, not a backup, a cut file', async () => {
    expect(backupFile).not.toBe('');
    const dir = scratch();

    writeFileSync(join(dir, 'placeholder'), '');
    const nonEmpty = await cli(dir, 'restore', backupFile);
    expect(nonEmpty.code).toBe(1);
    expect(nonEmpty.stderr).toMatch(/is not empty: restore only into a new or empty directory/);
    expect(readdirSync(dir)).toEqual(['placeholder']);

    const notBackup = join(dir, 'notes.txt');
    writeFileSync(notBackup, 'site list, 2026\n');
    const target = join(dir, 'target');
    const wrong = await cli(target, 'restore', notBackup);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/is not a Trapline backup/);

    const cut = join(dir, 'cut.backup');
    const whole = readFileSync(backupFile);
    writeFileSync(cut, whole.subarray(0, whole.length - 1000));
    const truncated = await cli(target, 'restore', cut);
    expect(truncated.code).toBe(1);
    expect(truncated.stderr).toMatch(/cut short/);

    const altered = join(dir, 'altered.backup');
    const flipped = Buffer.from(whole);
    flipped[flipped.length - 10] ^= 0xff;
    writeFileSync(altered, flipped);
    const damaged = await cli(target, 'restore', altered);
    expect(damaged.code).toBe(1);
    expect(damaged.stderr).toMatch(/damaged \(checksum differs\)/);
    expect(existsSync(target)).toBe(false);
    expect(readdirSync(dir).filter((n) => n.includes('restoring'))).toEqual([]);

    const again = await cli(dir, 'backup', backupFile);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/No Trapline database|already exists/);
  }, 300_000);

  it('refuses a backup over an existing file, and on PostgreSQL says to use pg_dump', async () => {
    const dataDir = migratedDataDir('trapline-backup-refusals-');
    temp.push(dataDir);
    const existing = join(scratch(), 'yesterday.backup');
    writeFileSync(existing, 'yesterday');
    const over = await cli(dataDir, 'backup', existing);
    expect(over.code).toBe(1);
    expect(over.stderr).toMatch(/already exists: a backup never overwrites a file/);
    expect(readFileSync(existing, 'utf8')).toBe('yesterday');

    const pgDump = await runRecordsCli(
      { TRAPLINE_DATA_DIR: dataDir, DATABASE_URL: 'postgres://nobody@127.0.0.1:1/trapline' },
      'backup',
      join(scratch(), 'pg.backup'),
    );
    expect(pgDump.code).toBe(2);
    expect(pgDump.stderr).toMatch(/pg_dump --format=custom/);
  }, 120_000);
});
