import { spawn } from 'node:child_process';
import { readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRecordsServer } from '../../../src/server/records/server';
import { migratedDataDir } from '../../helpers/migrated-data-dir';
import { nodeArgs } from '../../helpers/node-process';
import { RECORDS_CLI, runRecordsCli } from '../../helpers/records-cli';

const dirs: string[] = [];
const tempDir = () => {
  const d = migratedDataDir('trapline-cli-');
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const cli = (dataDir: string, ...args: string[]) =>
  runRecordsCli({ TRAPLINE_DATA_DIR: dataDir, DATABASE_URL: '' }, ...args);

describe('npm run records -- agency-token', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = tempDir();
    const s = await startRecordsServer(
      { RECORDS_PORT: 0, TRAPLINE_DATA_DIR: dataDir, TRAPLINE_DEMO_PASSWORD: 'cli-test-password' },
      { logger: false, demoData: false },
    );
    await s.close();
  }, 120_000);

  it('creates an agency token shown once that acts for the agency, and revokes it', async () => {
    const created = await cli(dataDir, 'agency-token', 'create', '--agency', '1');
    expect(created.code).toBe(0);
    const [, token] = created.stdout.trim().split('\n');
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const id = Number(/Agency token (\d+)/.exec(created.stdout)![1]);

    const me = async () => {
      const s = await startRecordsServer(
        { RECORDS_PORT: 0, TRAPLINE_DATA_DIR: dataDir },
        { logger: false },
      );
      try {
        return await fetch(`${s.url}/v1/me`, { headers: { authorization: `Bearer ${token}` } });
      } finally {
        await s.close();
      }
    };
    const before = await me();
    expect(before.status).toBe(200);
    expect(await before.json()).toMatchObject({ agency: { id: 1 }, user: { role: 'manager' } });

    const revoked = await cli(dataDir, 'agency-token', 'revoke', '--id', String(id));
    expect(revoked.code).toBe(0);
    expect((await me()).status).toBe(401);
    expect((await cli(dataDir, 'agency-token', 'revoke', '--id', String(id))).code).toBe(1);
  }, 120_000);

  it('refuses an unknown agency and a missing flag', async () => {
    const unknown = await cli(dataDir, 'agency-token', 'create', '--agency', '99');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No agency 99');
    expect((await cli(dataDir, 'agency-token', 'create')).code).toBe(2);
  }, 60_000);
});

describe('npm run records', () => {
  it('lists what is wrong with the environment and exits 1', async () => {
    const res = await runRecordsCli({ RECORDS_PORT: 'eighty', TRUST_PROXY: 'proxy' });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('RECORDS_PORT');
    expect(res.stderr).toContain('TRUST_PROXY');
  }, 60_000);

  it('starts, prints its URL and a generated demo password once, saved with mode 0600', async () => {
    const dataDir = tempDir();
    const child = spawn(process.execPath, nodeArgs(RECORDS_CLI), {
      env: {
        ...process.env,
        TRAPLINE_DATA_DIR: dataDir,
        RECORDS_PORT: '0',
        TRAPLINE_DEMO_PASSWORD: '',
        DATABASE_URL: '',
      },
    });
    let out = '';
    child.stdout.on('data', (c) => (out += String(c)));
    try {
      await new Promise<void>((done, fail) => {
        const timer = setTimeout(() => fail(new Error(`no URL printed: ${out}`)), 90_000);
        child.stdout.on('data', () => {
          if (/Demo password: /.test(out)) {
            clearTimeout(timer);
            done();
          }
        });
        child.on('exit', (code) => fail(new Error(`exited ${code}: ${out}`)));
      });
      const url = /listening on (http:\/\/\S+)/.exec(out)![1];
      const password = /Demo password: (\S+)/.exec(out)![1];
      const file = join(dataDir, 'demo-credentials.txt');
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(readFileSync(file, 'utf8')).toContain(`demo-tech\t${password}`);
      const res = await fetch(`${url}/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'demo-tech', password }),
      });
      expect(res.status).toBe(200);
      // The password is printed by the start-up message only, never in a log line.
      expect(out.split('\n').filter((l) => l.startsWith('{') && l.includes(password))).toEqual([]);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
  }, 120_000);
});
