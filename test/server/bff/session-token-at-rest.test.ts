import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEnv } from '../../../src/server/bff/env';
import { EnvError } from '../../../src/server/env-error';
import { loadSessionKey, parseSessionKey } from '../../../src/server/bff/session-key';
import { openDatabase } from '../../../src/server/db/open-database';
import { startStack, type RunningStack } from '../../../src/server/main';
import { buildTestRecords, TEST_PASSWORD, type TestRecords } from '../helpers/records-app';
import { appRequest } from './helpers/bff-stack';
import { cookieFrom } from './helpers/http';
import { startTcpFaultProxy, type TcpFaultProxy } from './helpers/tcp-fault-proxy';

/**
 * The upstream token a session acts with is sealed in the session table (AES-256-GCM) with a
 * key from TRAPLINE_SESSION_KEY or, by default, one generated into the data dir: a copy of the
 * database gives no token; a restart on the same data dir keeps every session; a BFF with
 * another key reads them as signed out, and never fails on them. `npm start`'s own start-up
 * (startStack) runs here, in front of the real records service.
 */

const OTHER_KEY = 'b'.repeat(64);
let records: TestRecords;
let proxy: TcpFaultProxy;
const dataDir = mkdtempSync(join(tmpdir(), 'trapline-session-key-'));
let running: RunningStack | undefined;

beforeAll(async () => {
  records = await buildTestRecords();
  await records.app.listen({ port: 0, host: '127.0.0.1' });
  proxy = await startTcpFaultProxy(
    `http://127.0.0.1:${(records.app.server.address() as AddressInfo).port}`,
  );
});
// Creating a PGlite data dir is the slow part of a first start: done here, not in a test.
beforeAll(async () => {
  const db = await openDatabase({ dataDir });
  await db.close();
});
afterAll(async () => {
  await running?.close();
  await proxy?.close();
  await records?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Starts the BFF as `npm start` does with UPSTREAM_URL, on the shared data dir. */
async function start(extra: Record<string, string> = {}) {
  running = await startStack(
    parseEnv({
      UPSTREAM_URL: proxy.url,
      TRAPLINE_DATA_DIR: dataDir,
      PORT: '0',
      LOG_LEVEL: 'silent',
      ...extra,
    }),
    { staticRoot: null },
  );
  return appRequest(running.bff.url);
}
async function stop() {
  await running?.close();
  running = undefined;
}

let cookie = '';
let token = '';

describe('the upstream token at rest', () => {
  it('is sealed in the session table, and the session works', async () => {
    const api = await start();
    const res = await api('/api/session', {
      method: 'POST',
      body: { username: 'demo-tech', password: TEST_PASSWORD },
    });
    expect(res.status).toBe(200);
    cookie = cookieFrom(res)!;
    const me = [...proxy.seen].reverse().find((r) => r.path === '/v1/me')!;
    token = /authorization: Bearer (\S+)/i.exec(me.head)![1];
    expect((await api('/api/v1/arthropod/collection', { cookie })).status).toBe(200);
    await stop();

    const db = await openDatabase({ dataDir });
    try {
      const { rows } = await db.query<{ upstream_token: string }>(
        'select upstream_token from bff_session',
      );
      expect(rows).toHaveLength(1);
      const stored = rows[0].upstream_token;
      expect(stored).not.toContain(token);
      expect(stored).not.toContain(Buffer.from(token).toString('base64'));
      expect(stored).not.toContain(Buffer.from(token).toString('hex'));
      expect(stored).toMatch(/^v1\./);
    } finally {
      await db.close();
    }
  });

  it('is sealed with a key generated once into the data dir, readable only by its owner', () => {
    const file = join(dataDir, 'session-key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(parseSessionKey(readFileSync(file, 'utf8'))).toHaveLength(32);
  });

  it('still opens after a restart on the same data dir: the user stays signed in', async () => {
    const api = await start();
    const res = await api('/api/session', { cookie });
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({ user: { username: 'demo-tech' } });
    expect((await api('/api/v1/arthropod/collection', { cookie })).status).toBe(200);
    await stop();
  });

  it('with another key reads as signed out (401), never as an error', async () => {
    const api = await start({ TRAPLINE_SESSION_KEY: OTHER_KEY });
    for (const path of ['/api/session', '/api/v1/arthropod/collection']) {
      const res = await api(path, { cookie });
      expect(res.status, path).toBe(401);
      expect(res.json(), path).toMatchObject({ error: { code: 'unauthenticated' } });
    }
    // Signing out of such a session is still an ordinary sign-out.
    expect((await api('/api/session', { method: 'DELETE', cookie })).status).toBe(204);
    await stop();
  });

  it('opens with TRAPLINE_SESSION_KEY set to the same key (several BFF processes)', async () => {
    const shared = readFileSync(join(dataDir, 'session-key'), 'utf8').trim();
    const api = await start({ TRAPLINE_SESSION_KEY: shared });
    const res = await api('/api/session', {
      method: 'POST',
      body: { username: 'demo-tech', password: TEST_PASSWORD },
    });
    const fresh = cookieFrom(res)!;
    await stop();
    const again = await start();
    expect((await again('/api/session', { cookie: fresh })).status).toBe(200);
    await stop();
  });
});

describe('TRAPLINE_SESSION_KEY', () => {
  it('takes 32 bytes as hex or base64', () => {
    const hex = parseEnv({ TRAPLINE_SESSION_KEY: 'a1'.repeat(32) }).TRAPLINE_SESSION_KEY;
    expect(hex).toEqual(Buffer.alloc(32, 0xa1));
    const b64 = Buffer.alloc(32, 7).toString('base64');
    expect(parseEnv({ TRAPLINE_SESSION_KEY: b64 }).TRAPLINE_SESSION_KEY).toEqual(
      Buffer.alloc(32, 7),
    );
    expect(parseEnv({}).TRAPLINE_SESSION_KEY).toBeUndefined();
  });

  it.each(['short', 'a1'.repeat(31), Buffer.alloc(16).toString('base64'), 'z'.repeat(64)])(
    'refuses %s with a message that says what it must be',
    (value) => {
      let error: unknown;
      try {
        parseEnv({ TRAPLINE_SESSION_KEY: value });
      } catch (err) {
        error = err;
      }
      expect(error).toBeInstanceOf(EnvError);
      expect((error as EnvError).problems.join('\n')).toMatch(
        /TRAPLINE_SESSION_KEY must be 32 bytes .*hex.*base64/,
      );
      expect((error as EnvError).problems.join('\n')).not.toContain(value);
    },
  );

  it('two first starts on one data dir agree on one key', () => {
    const dir = mkdtempSync(join(tmpdir(), 'trapline-key-race-'));
    try {
      const keys = [loadSessionKey(undefined, dir), loadSessionKey(undefined, dir)];
      expect(keys[0]).toEqual(keys[1]);
      expect(loadSessionKey(Buffer.alloc(32, 1), dir)).toEqual(Buffer.alloc(32, 1));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
