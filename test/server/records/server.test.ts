import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRecordsServer, type RunningRecords } from '../../../src/server/records/server';
import { EnvError } from '../../../src/server/env-error';
import { parseRecordsEnv } from '../../../src/server/records/env';

const lines: string[] = [];
const capture = new Writable({
  write(chunk, _enc, done) {
    lines.push(String(chunk));
    done();
  },
});
let dataDir: string;
let running: RunningRecords;
const PASSWORD = 'demo-password-for-logs';

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'trapline-records-'));
  running = await startRecordsServer(
    { RECORDS_PORT: 0, TRAPLINE_DATA_DIR: dataDir, TRAPLINE_DEMO_PASSWORD: PASSWORD },
    { logger: { level: 'info', stream: capture }, demoData: false },
  );
}, 120_000);
afterAll(async () => {
  await running?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('startRecordsServer', () => {
  it('listens on the given port over real HTTP and seeds the demo accounts', async () => {
    expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(running.demoCredentials).toMatchObject({
      generated: false,
      file: null,
      usernames: ['demo-manager', 'demo-tech', 'neighbor-manager'],
    });
    const res = await fetch(`${running.url}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'demo-manager', password: PASSWORD }),
    });
    expect(res.status).toBe(200);
  });

  it('never writes tokens, passwords or hashes to its log', async () => {
    const login = await fetch(`${running.url}/login?username=demo-tech&password=${PASSWORD}`, {
      method: 'POST',
    });
    const { token } = (await login.json()) as { token: string };
    await fetch(`${running.url}/v1/me`, { headers: { authorization: `Bearer ${token}` } });
    await fetch(`${running.url}/v1/site?token=${token}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const { rows } = await running.db.query<{ password_hash: string }>(
      'select password_hash from app_user limit 1',
    );
    const log = lines.join('');
    expect(log).toContain('/v1/me'); // requests are logged…
    expect(log).toContain('password=[redacted]');
    expect(log).not.toContain(PASSWORD); // …but never the secrets
    expect(log).not.toContain(token);
    expect(log).not.toContain(rows[0].password_hash.split('$')[5]);
  });
});

describe('parseRecordsEnv', () => {
  it('fills the defaults of the run contract', () => {
    expect(parseRecordsEnv({})).toEqual({
      RECORDS_PORT: 8081,
      HOST: '127.0.0.1',
      TRAPLINE_DATA_DIR: './.trapline',
      TRAPLINE_TOKEN_TTL_S: 3600,
      TRAPLINE_RENEW_WINDOW_S: 604800,
      TRUST_PROXY: [],
    });
    expect(
      parseRecordsEnv({ TRUST_PROXY: '10.0.0.2, ::1', RECORDS_PORT: '9000', DATABASE_URL: '' }),
    ).toMatchObject({ TRUST_PROXY: ['10.0.0.2', '::1'], RECORDS_PORT: 9000 });
  });

  it('lists every problem at once', () => {
    try {
      parseRecordsEnv({
        RECORDS_PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        TRUST_PROXY: 'proxy.local',
        TLS_CERT: '/c.pem',
      });
      throw new Error('expected EnvError');
    } catch (err) {
      expect(err).toBeInstanceOf(EnvError);
      const problems = (err as EnvError).problems.join('\n');
      for (const name of ['RECORDS_PORT', 'DATABASE_URL', 'TRUST_PROXY'])
        expect(problems).toContain(name);
    }
    expect(() => parseRecordsEnv({ TLS_CERT: '/c.pem' })).toThrow(/TLS_KEY/);
  });
});
