import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashSessionId } from '../../../src/server/bff/session-store';
import { TEST_PASSWORD } from '../helpers/records-app';
import { startBffStack, type BffStack } from './helpers/bff-stack';
import { cookieFrom, http } from './helpers/http';

let stack: BffStack;
beforeAll(async () => {
  stack = await startBffStack();
});
afterAll(async () => {
  await stack?.close();
});

describe('POST /api/session', () => {
  it('signs in with the upstream account and answers who and until when, without any token', async () => {
    const res = await stack.api('/api/session', {
      method: 'POST',
      body: { username: 'demo-tech', password: TEST_PASSWORD },
    });
    expect(res.status).toBe(200);
    const info = res.json<{
      user: { username: string; role: string };
      agency: { id: number; name: string };
      expiresAt: string;
    }>();
    expect(info.user).toMatchObject({ username: 'demo-tech', role: 'technician' });
    expect(info.agency.name).toBe('Demo Vector Control District');
    expect(Date.parse(info.expiresAt)).toBeGreaterThan(Date.now() + 50 * 60_000);
    expect(Object.keys(info).sort()).toEqual(['agency', 'expiresAt', 'user']);
    expect(res.text).not.toMatch(/token/i);
  });

  it('sets exactly one cookie: __Host-trapline, Secure, HttpOnly, SameSite=Strict, Path=/, no Domain', async () => {
    const res = await stack.api('/api/session', {
      method: 'POST',
      body: { username: 'demo-tech', password: TEST_PASSWORD },
    });
    const raw = res.headers['set-cookie'];
    const lines = Array.isArray(raw) ? raw : [raw];
    expect(lines).toHaveLength(1);
    const [pair, ...attrs] = String(lines[0])
      .split(';')
      .map((s) => s.trim());
    expect(pair).toMatch(/^__Host-trapline=[A-Za-z0-9_-]{43}$/);
    expect(attrs.sort()).toEqual(['HttpOnly', 'Path=/', 'SameSite=Strict', 'Secure']);
  });

  it('stores only a hash of the session id, the upstream token, and never the password', async () => {
    const cookie = await stack.signIn('demo-manager');
    const id = cookie.split('=')[1];
    const { rows } = await stack.records.db.query('select * from bff_session where id_hash = $1', [
      hashSessionId(id),
    ]);
    expect(rows).toHaveLength(1);
    const stored = JSON.stringify(await stack.records.db.query('select * from bff_session'));
    expect(stored).not.toContain(id);
    expect(stored).not.toContain(TEST_PASSWORD);
    expect(rows[0].upstream_token).toEqual(expect.any(String));
  });

  it('gives a new session id at every sign-in and ends the previous one of the same browser', async () => {
    const first = await stack.signIn();
    const res = await stack.api('/api/session', {
      method: 'POST',
      cookie: first,
      body: { username: 'demo-tech', password: TEST_PASSWORD },
    });
    const second = cookieFrom(res);
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
    expect((await stack.api('/api/session', { cookie: first })).status).toBe(401);
    expect((await stack.api('/api/session', { cookie: second })).status).toBe(200);
  });

  it('refuses a wrong password with 401 invalid_credentials and sets no cookie', async () => {
    const res = await stack.api('/api/session', {
      method: 'POST',
      body: { username: 'demo-manager', password: 'not-the-password' },
    });
    expect(res.status).toBe(401);
    expect(res.json()).toMatchObject({ error: { code: 'invalid_credentials' } });
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('lists every missing field with 422 when the sign-in form is empty', async () => {
    const res = await stack.api('/api/session', { method: 'POST', body: {} });
    expect(res.status).toBe(422);
    const body = res.json<{ error: { code: string; fields: Array<{ path: string }> } }>();
    expect(body.error.code).toBe('validation_failed');
    expect(body.error.fields.map((f) => f.path).sort()).toEqual(['password', 'username']);
  });

  it('answers 429 with Retry-After after 10 failed attempts for one username in a minute', async () => {
    const attempt = () =>
      stack.api('/api/session', {
        method: 'POST',
        body: { username: 'neighbor-manager', password: 'wrong' },
      });
    for (let i = 0; i < 10; i++) expect((await attempt()).status).toBe(401);
    const limited = await attempt();
    expect(limited.status).toBe(429);
    expect(limited.json()).toMatchObject({ error: { code: 'rate_limited' } });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('sign-in attempts per client address', () => {
  it('answers 429 once one address has used its attempts for the minute, right or wrong', async () => {
    const strict = await stack.startSibling({ loginLimits: { attemptsPerAddress: 3 } });
    const attempt = (password: string) =>
      http(`${strict.url}/api/session`, {
        method: 'POST',
        headers: { 'x-csrf': '1', origin: strict.url },
        body: { username: 'demo-manager', password },
      });
    expect((await attempt('wrong')).status).toBe(401);
    expect((await attempt(TEST_PASSWORD)).status).toBe(200);
    expect((await attempt(TEST_PASSWORD)).status).toBe(200);
    const limited = await attempt(TEST_PASSWORD);
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
  });
});

describe('GET and DELETE /api/session', () => {
  it('says who is signed in', async () => {
    const cookie = await stack.signIn('demo-manager');
    const res = await stack.api('/api/session', { cookie });
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({
      user: { username: 'demo-manager', role: 'manager' },
      agency: { id: expect.any(Number) },
    });
  });

  it('answers 401 unauthenticated with no cookie or an unknown one', async () => {
    for (const cookie of [undefined, '__Host-trapline=made-up-session-id']) {
      const res = await stack.api('/api/session', { cookie });
      expect(res.status).toBe(401);
      expect(res.json()).toMatchObject({ error: { code: 'unauthenticated' } });
    }
  });

  it('signs out: the server session is gone and the cookie is cleared', async () => {
    const cookie = await stack.signIn();
    const out = await stack.api('/api/session', { method: 'DELETE', cookie });
    expect(out.status).toBe(204);
    expect(String(out.headers['set-cookie'])).toMatch(/^__Host-trapline=;.*Max-Age=0/);
    const after = await stack.api('/api/v1/arthropod/collection', { cookie });
    expect(after.status).toBe(401);
    expect(after.json()).toMatchObject({ error: { code: 'unauthenticated' } });
  });
});

describe('an expired upstream token', () => {
  let short: BffStack;
  beforeAll(async () => {
    // No renew window: the expired token cannot be renewed (session-renewal.test.ts renews it).
    short = await startBffStack({ records: { tokenTtlSeconds: 2, renewWindowSeconds: 0 } });
  });
  afterAll(async () => {
    await short?.close();
  });

  it('answers 401 reauth_required on every /api route, and signing in again resumes', async () => {
    const cookie = await short.signIn();
    expect((await short.api('/api/v1/arthropod/collection', { cookie })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 2_300));
    for (const path of [
      '/api/session',
      '/api/v1/arthropod/collection',
      '/api/lookups',
      '/api/v1/species',
    ]) {
      const res = await short.api(path, { cookie });
      expect(res.status, path).toBe(401);
      expect(res.json(), path).toMatchObject({ error: { code: 'reauth_required' } });
    }
    const again = await short.signIn();
    const res = await short.api('/api/v1/arthropod/collection', { cookie: again });
    expect(res.status).toBe(200);
  });

  it('turns an upstream 401 into reauth_required even before the stated expiry', async () => {
    const cookie = await short.signIn();
    await short.records.db.query("update api_token set revoked_at = now() where kind = 'login'");
    const res = await short.api('/api/v1/arthropod/collection', { cookie });
    expect(res.status).toBe(401);
    expect(res.json()).toMatchObject({ error: { code: 'reauth_required' } });
  });
});
