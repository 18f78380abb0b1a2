import { spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processStartTime } from '../../../src/server/db/data-dir-lock';
import { startRecordsServer, type RunningRecords } from '../../../src/server/records/server';
import { migratedDataDir } from '../../helpers/migrated-data-dir';
import { nodeArgs } from '../../helpers/node-process';
import { RECORDS_CLI, runRecordsCli } from '../../helpers/records-cli';

/**
 * The embedded database (PGlite) belongs to one process: a second process opening the same data
 * directory runs its own copy of PostgreSQL on the same files, sees nothing the first writes, and
 * what it writes is lost or overwrites the first's. A second `npm start` or `npm run records` on
 * the same TRAPLINE_DATA_DIR, or `npm run records -- agency-token …` while Trapline runs, must
 * refuse, say why and what to do, and leave the running one's data alone. A directory left behind
 * by a process that died (SIGKILL, power cut) opens as before.
 */
const PASSWORD = 'data-dir-in-use-password';

let dataDir: string;
let running: RunningRecords | null = null;
beforeAll(async () => {
  dataDir = migratedDataDir('trapline-in-use-');
  running = await startRecordsServer(
    { RECORDS_PORT: 0, TRAPLINE_DATA_DIR: dataDir, TRAPLINE_DEMO_PASSWORD: PASSWORD },
    { logger: false, demoData: false },
  );
}, 120_000);
afterAll(async () => {
  await running?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const cli = (...args: string[]) =>
  runRecordsCli({ TRAPLINE_DATA_DIR: dataDir, DATABASE_URL: '', RECORDS_PORT: '0' }, ...args);

async function signIn(url: string): Promise<number> {
  const res = await fetch(`${url}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'demo-manager', password: PASSWORD }),
  });
  return res.status;
}

describe('a data directory a running Trapline holds', () => {
  it('agency-token create refuses with one clear line instead of printing a token the server never sees', async () => {
    const res = await cli('agency-token', 'create', '--agency', '1');
    expect({ code: res.code, stdout: res.stdout }).toEqual({ code: 1, stdout: '' });
    expect(res.stderr).toMatch(/in use by another running Trapline \(process \d+\)/);
    expect(res.stderr).toContain(dataDir);
    expect(res.stderr).toContain('POST /v1/agency/token');
    expect(res.stderr).not.toMatch(/\n\s+at /);
    expect(await signIn(running!.url)).toBe(200);
  }, 60_000);

  it('a second records service on it refuses to start, and the first keeps serving', async () => {
    const child = spawn(process.execPath, nodeArgs(RECORDS_CLI), {
      env: { ...process.env, TRAPLINE_DATA_DIR: dataDir, DATABASE_URL: '', RECORDS_PORT: '0' },
    });
    let out = '';
    child.stdout.on('data', (c) => (out += String(c)));
    child.stderr.on('data', (c) => (out += String(c)));
    const code = await new Promise<number | null>((done) => {
      const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
      child.on('exit', (c) => {
        clearTimeout(timer);
        done(c);
      });
      child.stdout.on('data', () => {
        if (/listening on/.test(out)) child.kill('SIGTERM');
      });
    });
    expect(out).not.toMatch(/listening on/);
    expect(code).toBe(1);
    expect(out).toMatch(/in use by another running Trapline/);
    expect(out).not.toMatch(/\n\s+at /);
    expect(await signIn(running!.url)).toBe(200);
  }, 90_000);
});

describe('a data directory whose last process died', () => {
  it('opens, whether the lock names a dead process, this one (a container restarted) or one from before a reboot', async () => {
    await running!.close();
    running = null;
    const dead = spawn(process.execPath, ['-e', '']);
    const pid = dead.pid!;
    await new Promise((done) => dead.on('exit', done));
    const locks = [`${pid}\n`, `${process.pid}\n`];
    if (process.platform === 'linux') {
      const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
      // A process that ran before the machine restarted, whose id a running one (this test's
      // parent) now wears; and one whose id was taken by a process started since.
      locks.push(`${process.ppid}\n00000000-0000-0000-0000-000000000000\n`);
      locks.push(`${process.ppid}\n${boot}\n1\n`);
    }
    for (const lock of locks) {
      writeFileSync(join(dataDir, 'pgdata.lock'), lock);
      const again = await startRecordsServer(
        { RECORDS_PORT: 0, TRAPLINE_DATA_DIR: dataDir },
        { logger: false },
      );
      try {
        expect(await signIn(again.url)).toBe(200);
      } finally {
        await again.close();
      }
    }
    // Closed: the CLI may open it now.
    const res = await cli('agency-token', 'create', '--agency', '1');
    expect(res.code, res.stderr).toBe(0);
  }, 120_000);

  it.runIf(process.platform === 'linux')(
    'but not while the process it names is the one that wrote it',
    async () => {
      const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
      const lock = `${process.ppid}\n${boot}\n${processStartTime(process.ppid)}\n`;
      writeFileSync(join(dataDir, 'pgdata.lock'), lock);
      try {
        await expect(
          startRecordsServer({ RECORDS_PORT: 0, TRAPLINE_DATA_DIR: dataDir }, { logger: false }),
        ).rejects.toThrow(`in use by another running Trapline (process ${process.ppid})`);
        expect(readFileSync(join(dataDir, 'pgdata.lock'), 'utf8')).toBe(lock);
      } finally {
        rmSync(join(dataDir, 'pgdata.lock'), { force: true });
      }
    },
    60_000,
  );
});
