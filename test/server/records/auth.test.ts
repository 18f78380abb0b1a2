import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestRecords, TEST_PASSWORD, type TestRecords } from '../helpers/records-app';
import { whoAmI } from '#shared/schemas/auth';

let t: TestRecords;
let clock = Date.parse('2026-07-14T15:00:00.000Z');

beforeAll(async () => {
  t = await buildTestRecords({
    now: () => new Date(clock),
    loginLimits: { failuresPerUsername: 10, attemptsPerAddress: 300 },
  });
});
afterAll(() => t.close());

const login = (payload: unknown, remoteAddress?: string) =>
  t.app.inject({
    method: 'POST',
    url: '/login',
    payload: payload as object,
    ...(remoteAddress ? { remoteAddress } : {}),
  });

describe('POST /login', () => {
  it('answers a token, its expiry an hour ahead and the agency for a JSON body', async () => {
    const res = await login({ username: 'demo-manager', password: TEST_PASSWORD });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body.expires_at).toBe(new Date(clock + 3600_000).toISOString());
    expect(body.agencies).toEqual([{ id: 1, name: 'Demo Vector Control District' }]);
  });

  it('accepts the credentials as query parameters', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/login?username=demo-tech&password=${encodeURIComponent(TEST_PASSWORD)}`,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().token).toBeTypeOf('string');
  });

  it('accepts the username in any letter case (tablet keyboards capitalise)', async () => {
    const res = await login({ username: 'Demo-Tech', password: TEST_PASSWORD });
    expect(res.statusCode).toBe(200);
    expect(res.json().agencies[0].id).toBe(1);
  });

  it('stores only a sha256 of the token and an scrypt hash of the password', async () => {
    const { token } = (await login({ username: 'demo-manager', password: TEST_PASSWORD })).json();
    const tokens = await t.db.query<{ token_hash: string }>('select token_hash from api_token');
    expect(tokens.rows.some((r) => r.token_hash.includes(token))).toBe(false);
    expect(tokens.rows.every((r) => /^[0-9a-f]{64}$/.test(r.token_hash))).toBe(true);
    const users = await t.db.query<{ password_hash: string }>('select password_hash from app_user');
    expect(
      users.rows.every(
        (r) => r.password_hash.startsWith('scrypt$') && !r.password_hash.includes(TEST_PASSWORD),
      ),
    ).toBe(true);
  });

  it('rejects a wrong password and an unknown user alike with 401 invalid_credentials', async () => {
    for (const body of [
      { username: 'neighbor-manager', password: 'nope' },
      { username: 'nobody-here', password: TEST_PASSWORD },
    ]) {
      const res = await login(body, '127.1.0.1');
      expect(res.statusCode).toBe(401);
      expect(res.json().error.code).toBe('invalid_credentials');
    }
  });

  it('answers 422 listing the missing fields', async () => {
    const res = await login({ username: '' });
    expect(res.statusCode).toBe(422);
    expect(res.json().error.code).toBe('validation_failed');
    expect(
      res
        .json()
        .error.fields.map((f: { path: string }) => f.path)
        .sort(),
    ).toEqual(['password', 'username']);
  });

  it('answers 400 for malformed JSON and 415 for a form body', async () => {
    const bad = await t.app.inject({
      method: 'POST',
      url: '/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"username":',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('bad_request');
    const form = await t.app.inject({
      method: 'POST',
      url: '/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'username=a&password=b',
    });
    expect(form.statusCode).toBe(415);
    expect(form.json().error.code).toBe('unsupported_media_type');
  });
});

describe('login rate limits', () => {
  it('locks a username after 10 failures in a minute with 429 and Retry-After, even with the right password', async () => {
    for (let i = 0; i < 10; i++) {
      expect(
        (await login({ username: 'demo-tech', password: `wrong-${i}` }, '127.2.0.1')).statusCode,
      ).toBe(401);
    }
    const locked = await login({ username: 'demo-tech', password: TEST_PASSWORD }, '127.2.0.2');
    expect(locked.statusCode).toBe(429);
    expect(locked.json().error.code).toBe('rate_limited');
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(locked.headers['retry-after'])).toBeLessThanOrEqual(60);
    clock += 61_000;
    expect(
      (await login({ username: 'demo-tech', password: TEST_PASSWORD }, '127.2.0.2')).statusCode,
    ).toBe(200);
  });

  it('lets at most 10 wrong passwords of one username be checked when they arrive all at once', async () => {
    // A burst sent together: each was checked against the limit before any failure was counted.
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        login({ username: 'demo-manager', password: `burst-${i}` }, `127.4.0.${i}`),
      ),
    );
    const codes = answers.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 401).length).toBeLessThanOrEqual(10);
    expect(codes.filter((c) => c === 429).length).toBeGreaterThanOrEqual(20);
    expect(codes.filter((c) => c !== 401 && c !== 429)).toEqual([]);
    clock += 61_000;
    const after = await login({ username: 'demo-manager', password: TEST_PASSWORD }, '127.4.1.1');
    expect(after.statusCode).toBe(200);
  });

  it('allows 300 attempts a minute from one address, then 429', async () => {
    // Every attempt counts, even one without a password (cheap: no scrypt to run).
    for (let i = 0; i < 300; i++) {
      const res = await login({ username: `user-${i}` }, '127.3.0.1');
      expect(res.statusCode).toBe(422);
    }
    const res = await login({ username: 'demo-manager', password: TEST_PASSWORD }, '127.3.0.1');
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBeDefined();
    // Another address is not affected.
    expect(
      (await login({ username: 'demo-manager', password: TEST_PASSWORD }, '127.3.0.2')).statusCode,
    ).toBe(200);
  });
});

describe('bearer tokens on /v1', () => {
  it('refuses /v1 without a token, including lookups, with 401 unauthenticated', async () => {
    for (const url of ['/v1/me', '/v1/site', '/v1/species', '/v1/arthropod/collection']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(401);
      expect(res.json().error.code).toBe('unauthenticated');
    }
  });

  it('refuses an unknown token with 401 unauthenticated', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/v1/me',
      headers: t.auth('not-a-real-token'),
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe('unauthenticated');
  });

  it('answers who the token acts for on GET /v1/me', async () => {
    const token = await t.login('demo-tech');
    const res = await t.app.inject({ method: 'GET', url: '/v1/me', headers: t.auth(token) });
    expect(res.statusCode).toBe(200);
    const me = whoAmI.parse(res.json());
    expect(me.user).toMatchObject({ username: 'demo-tech', role: 'technician' });
    expect(me.agency).toEqual({ id: 1, name: 'Demo Vector Control District' });
    expect(me.expires_at).toBe(new Date(clock + 3600_000).toISOString());
  });

  it('answers 401 token_expired once a login token is past its hour', async () => {
    const token = await t.login('demo-manager');
    clock += 3599_000;
    expect(
      (await t.app.inject({ method: 'GET', url: '/v1/me', headers: t.auth(token) })).statusCode,
    ).toBe(200);
    clock += 1_000;
    const res = await t.app.inject({ method: 'GET', url: '/v1/me', headers: t.auth(token) });
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe('token_expired');
  });
});

describe('agency tokens', () => {
  it('lets a manager create one that acts with manager rights and revoke it', async () => {
    const manager = await t.login('demo-manager');
    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/agency/token',
      headers: t.auth(manager),
    });
    expect(created.statusCode).toBe(201);
    const { id, token } = created.json();
    expect(id).toBeTypeOf('number');
    const me = await t.app.inject({ method: 'GET', url: '/v1/me', headers: t.auth(token) });
    expect(me.json()).toMatchObject({
      user: { id: null, role: 'manager' },
      agency: { id: 1 },
      expires_at: null,
    });
    // Long-lived: still valid a day later.
    clock += 86_400_000;
    expect(
      (await t.app.inject({ method: 'GET', url: '/v1/me', headers: t.auth(token) })).statusCode,
    ).toBe(200);

    const fresh = await t.login('demo-manager');
    const revoked = await t.app.inject({
      method: 'DELETE',
      url: `/v1/agency/token/${id}`,
      headers: t.auth(fresh),
    });
    expect(revoked.statusCode).toBe(200);
    const after = await t.app.inject({ method: 'GET', url: '/v1/me', headers: t.auth(token) });
    expect(after.statusCode).toBe(401);
    expect(after.json().error.code).toBe('unauthenticated');
  });

  it('never stores the clear agency token, even when the POST carries an Idempotency-Key', async () => {
    const manager = await t.login('demo-manager');
    const send = () =>
      t.app.inject({
        method: 'POST',
        url: '/v1/agency/token',
        headers: { ...t.auth(manager), 'idempotency-key': 'agency-token-key-1' },
      });
    const first = (await send()).json();
    const second = (await send()).json();
    expect(second.id).not.toBe(first.id);
    const stored = await t.db.query('select response::text as r from idempotency_key');
    expect(stored.rows.some((row) => String(row.r).includes(first.token))).toBe(false);
  });

  it('refuses a technician with 403 forbidden', async () => {
    const tech = await t.login('demo-tech');
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/agency/token',
      headers: t.auth(tech),
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('forbidden');
    // Revoking too, whatever the id: the role is judged before the path.
    for (const id of ['999999', 'abc', '007', '2147483648']) {
      const revoke = await t.app.inject({
        method: 'DELETE',
        url: `/v1/agency/token/${id}`,
        headers: t.auth(tech),
      });
      expect(revoke.statusCode, id).toBe(403);
      expect(revoke.json().error.code, id).toBe('forbidden');
    }
  });

  it("answers 404 for revoking another agency's token", async () => {
    const neighbor = await t.login('neighbor-manager');
    const { id } = (
      await t.app.inject({ method: 'POST', url: '/v1/agency/token', headers: t.auth(neighbor) })
    ).json();
    const manager = await t.login('demo-manager');
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/v1/agency/token/${id}`,
      headers: t.auth(manager),
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('not_found');
  });
});

describe('transport (contract §8)', () => {
  it('refuses plain HTTP from a non-loopback peer with 403 https_required', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/login',
      remoteAddress: '192.0.2.10',
      payload: { username: 'demo-manager', password: TEST_PASSWORD },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('https_required');
  });

  it('ignores X-Forwarded-Proto from a proxy not in TRUST_PROXY', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/v1/me',
      remoteAddress: '192.0.2.10',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('https_required');
  });
});
