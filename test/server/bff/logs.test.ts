import { rmSync } from 'node:fs';
import { Writable } from 'node:stream';
import { openDatabase } from '../../../src/server/db/open-database';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_PASSWORD } from '../helpers/records-app';
import { startBffStack, type BffStack } from './helpers/bff-stack';
import { appRequest } from './helpers/bff-stack';
import { cookieFrom, http } from './helpers/http';
import { makeCollection } from './helpers/record-bodies';
import { killSpawned, spawnMain, type SpawnedMain } from '../../helpers/spawned-main';
import { migratedDataDir } from '../../helpers/migrated-data-dir';

const lines: string[] = [];
const stream = new Writable({
  write(chunk: Buffer, _enc, done) {
    lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  },
});

let stack: BffStack;
beforeAll(async () => {
  stack = await startBffStack({ bff: { logger: { level: 'trace', stream } } });
});
afterAll(async () => {
  await stack?.close();
});

describe('BFF logs', () => {
  it('never contain a password, an upstream token or a session cookie', async () => {
    const cookie = await stack.signIn('demo-tech');
    const sessionId = cookie.split('=')[1];
    await stack.api('/api/session', {
      method: 'POST',
      body: { username: 'demo-tech', password: 'wrong-Secret-123' },
    });
    await stack.api('/api/session', {
      cookie,
      headers: { authorization: 'Bearer browser-secret-abc' },
    });
    await stack.api('/api/v1/arthropod/collection', {
      method: 'POST',
      cookie,
      headers: { 'idempotency-key': crypto.randomUUID() },
      body: makeCollection(),
    });
    await stack.api('/api/v1/arthropod/collection', { method: 'POST', cookie, body: { bad: 1 } });
    await stack.api('/api/lookups', { cookie });
    await stack.api('/api/v1/site?search=query-secret-value&token=url-token-value', { cookie });
    const lonely = await stack.startSibling({
      upstreamUrl: 'http://127.0.0.1:9',
      logger: { level: 'trace', stream },
    });
    await http(`${lonely.url}/api/v1/arthropod/collection`, { headers: { 'x-csrf': '1', cookie } });
    const { rows } = await stack.records.db.query<{ upstream_token: string }>(
      'select upstream_token from bff_session',
    );
    const tokens = rows.map((r) => r.upstream_token);
    expect(tokens.length).toBeGreaterThan(0);
    await stack.api('/api/session', { method: 'DELETE', cookie });

    expect(lines.length).toBeGreaterThan(10);
    expect(lines.some((l) => l.includes('/api/v1/arthropod/collection'))).toBe(true);
    expect(lines.some((l) => l.includes('upstream_unavailable'))).toBe(true);
    expect(lines.some((l) => l.includes('/api/v1/site?search=[redacted]&token=[redacted]'))).toBe(
      true,
    );
    const all = lines.join('\n');
    for (const secret of [
      TEST_PASSWORD,
      'wrong-Secret-123',
      'browser-secret-abc',
      'query-secret-value',
      'url-token-value',
      sessionId,
      ...tokens,
    ]) {
      expect(all).not.toContain(secret);
    }
  });
});

describe('the logs of an npm start (records service and BFF in one process)', () => {
  const dataDir = migratedDataDir('trapline-logs-');
  const DEMO_PASSWORD = 'Demo-Passw0rd-never-logged';
  let started: SpawnedMain | undefined;
  afterAll(async () => {
    await killSpawned(started);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('never contain a password, an upstream token or a session cookie, and no query value', async () => {
    started = spawnMain({
      TRAPLINE_DATA_DIR: dataDir,
      TRAPLINE_DEMO_PASSWORD: DEMO_PASSWORD,
      LOG_LEVEL: 'info',
    });
    const api = appRequest(await started.url());
    const signIn = await api('/api/session', {
      method: 'POST',
      body: { username: 'demo-tech', password: DEMO_PASSWORD },
    });
    expect(signIn.status).toBe(200);
    const cookie = cookieFrom(signIn) ?? '';
    await api('/api/session', {
      method: 'POST',
      body: { username: 'demo-tech', password: 'wrong-Secret-456' },
    });
    await api('/api/session', { cookie, headers: { authorization: 'Bearer browser-secret-def' } });
    await api('/api/v1/site?search=query-secret-value&password=url-password-value', { cookie });
    await api('/api/v1/arthropod/collection', {
      method: 'POST',
      cookie,
      headers: { 'idempotency-key': crypto.randomUUID() },
      body: makeCollection(),
    });
    await api('/api/lookups', { cookie });
    await api('/api/session', { method: 'DELETE', cookie });
    started.child.kill('SIGTERM');
    expect(await started.exited).toBe(0);

    const db = await openDatabase({ dataDir });
    const { rows } = await db.query<{ upstream_token: string }>(
      'select upstream_token from bff_session',
    );
    await db.close();
    const out = started.output();
    // Both services logged requests (the proxied list reached the records service).
    expect(out).toContain('/api/v1/site?search=[redacted]&password=[redacted]');
    expect(out).toContain('"/v1/site?search=[redacted]');
    // Neither service logs a query value: searches may hold whatever a technician typed.
    const bffLines = out.split('\n').filter((l) => l.includes('/api/'));
    expect(bffLines.length).toBeGreaterThan(5);
    expect(out).not.toContain('query-secret-value');
    for (const secret of [
      DEMO_PASSWORD,
      'wrong-Secret-456',
      'browser-secret-def',
      'url-password-value',
      cookie.split('=')[1],
      ...rows.map((r) => r.upstream_token),
    ]) {
      expect(out).not.toContain(secret);
    }
  }, 300_000);
});
