import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBffStack, type BffStack } from './helpers/bff-stack';
import { http } from './helpers/http';
import { rawRequest } from './helpers/raw-request';
import { makeCollection } from './helpers/record-bodies';

let stack: BffStack;
let cookie: string;

beforeAll(async () => {
  stack = await startBffStack();
  cookie = await stack.signIn();
});
afterAll(async () => {
  await stack?.close();
});

const COLLECTIONS = '/api/v1/arthropod/collection';

/** The Bearer value of a request's head as the records service received it. */
const bearerOf = (head: string) => /\r\nauthorization: Bearer (.*)\r\n/i.exec(head)?.[1];

/**
 * The session's upstream token, read off the wire (it is sealed in the session table): the token
 * of a proxied request, which the records service accepts.
 */
async function upstreamToken(): Promise<string> {
  const before = stack.proxy.seen.length;
  await stack.api(COLLECTIONS, { cookie });
  const token = bearerOf(stack.proxy.seen[before].head) ?? '';
  const me = await http(`${stack.recordsUrl}/v1/me`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(me.status).toBe(200);
  return token;
}

describe('the allow-listed proxy', () => {
  it('creates a collection upstream and reads it back, list and record', async () => {
    const body = makeCollection();
    const created = await stack.api(COLLECTIONS, { method: 'POST', cookie, body });
    expect(created.status).toBe(201);
    const record = created.json<{ id: number; collection_date: string }>();
    expect(record.collection_date).toBe(`${body.collection_date as string}T00:00:00.000Z`);
    const one = await stack.api(`${COLLECTIONS}/${record.id}`, { cookie });
    expect(one.status).toBe(200);
    expect(one.headers['cache-control']).toBe('no-store');
    expect(one.json()).toMatchObject({ id: record.id });
    const list = await stack.api(`${COLLECTIONS}?sort=-id&pageSize=1`, { cookie });
    expect(
      list.json<{ rows: Array<{ id: number }>; count: number }>().rows.map((r) => r.id),
    ).toEqual([record.id]);
  });

  it('forwards the query string and only Content-Type, Accept, Idempotency-Key, adding the Bearer token', async () => {
    const before = stack.proxy.seen.length;
    const key = crypto.randomUUID();
    await stack.api(`${COLLECTIONS}?sort=-id&pageSize=2`, {
      cookie,
      headers: {
        authorization: 'Bearer browser-supplied',
        'x-forwarded-for': '203.0.113.9',
        'x-forwarded-host': 'evil.example',
        'x-forwarded-proto': 'https',
        'x-custom': 'nope',
        'user-agent': 'Tablet/1.0',
        'accept-encoding': 'deflate',
      },
    });
    await stack.api(COLLECTIONS, {
      method: 'POST',
      cookie,
      headers: { 'idempotency-key': key, authorization: 'Basic Zm9vOmJhcg==' },
      body: makeCollection(),
    });
    const seen = stack.proxy.seen.slice(before);
    expect(seen.map((s) => `${s.method} ${s.target}`)).toEqual([
      'GET /v1/arthropod/collection?sort=-id&pageSize=2',
      'POST /v1/arthropod/collection',
    ]);
    for (const s of seen) {
      const headers = Object.fromEntries(
        s.head
          .split('\r\n')
          .slice(1)
          .filter((l) => l !== '')
          .map((l) => [
            l.slice(0, l.indexOf(':')).toLowerCase(),
            l.slice(l.indexOf(':') + 1).trim(),
          ]),
      );
      const allowed = [
        'host',
        'connection',
        'content-length',
        'content-type',
        'accept',
        'authorization',
        'idempotency-key',
        // The BFF's own, on reads (the browser's Accept-Encoding never goes up).
        'accept-encoding',
      ];
      expect(
        Object.keys(headers).filter((h) => !allowed.includes(h)),
        s.head,
      ).toEqual([]);
      expect(headers.cookie).toBeUndefined();
    }
    // Reads ask for a compressed answer the BFF decodes; writes do not.
    expect(seen.map((s) => /accept-encoding: (.*)\r\n/i.exec(s.head)?.[1] ?? null)).toEqual([
      'br, gzip',
      null,
    ]);
    const token = await upstreamToken();
    expect(seen.map((s) => bearerOf(s.head))).toEqual([token, token]);
    expect(token).not.toBe('browser-supplied');
    expect(seen[1].head.toLowerCase()).toContain(`idempotency-key: ${key}`);
  });

  it('passes upstream 4xx bodies through unchanged', async () => {
    const invalid = makeCollection({ trap_nights: 0, num_trap: 0 });
    const viaBff = await stack.api(COLLECTIONS, { method: 'POST', cookie, body: invalid });
    const direct = await http(`${stack.recordsUrl}/v1/arthropod/collection`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await stack.records.login('demo-tech')}` },
      body: invalid,
    });
    expect(viaBff.status).toBe(422);
    expect(viaBff.status).toBe(direct.status);
    expect(viaBff.json()).toEqual(direct.json());
    const missing = await stack.api(`${COLLECTIONS}/987654`, { cookie });
    expect(missing.status).toBe(404);
    expect(missing.json()).toMatchObject({ error: { code: 'not_found' } });
  });

  it('accepts a GET that carries Content-Type: application/json and no body (as the R client sends)', async () => {
    const res = await stack.api(COLLECTIONS, {
      cookie,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(200);
  });

  it('keeps connections to the upstream alive across requests', async () => {
    const before = stack.proxy.connections();
    for (let i = 0; i < 20; i++)
      expect((await stack.api(COLLECTIONS, { cookie })).status).toBe(200);
    expect(stack.proxy.connections() - before).toBeLessThanOrEqual(1);
  });

  it('never puts the upstream token in an answer', async () => {
    const token = await upstreamToken();
    const texts = [
      (await stack.api('/api/session', { cookie })).text,
      (await stack.api(COLLECTIONS, { cookie })).text,
      (await stack.api(COLLECTIONS, { method: 'POST', cookie, body: makeCollection() })).text,
      (await stack.api(COLLECTIONS, { method: 'POST', cookie, body: { nope: 1 } })).text,
    ];
    for (const t of texts) expect(t).not.toContain(token);
  });
});

describe('paths and methods outside the allow-list', () => {
  const headers = () => ({ 'x-csrf': '1', cookie, origin: stack.url });
  const tricky = [
    '/api/v1/arthropod/collection/../../agency/token',
    '/api/v1/%2e%2e/agency/token',
    '/api/v1/arthropod%2fcollection',
    '/api/v1/arthropod%2Fcollection/1',
    '/api/v1/arthropod%5ccollection',
    '/api/v1/arthropod\\collection',
    '/api//v1/arthropod/collection',
    '/api/v1//arthropod/collection',
    '/api/v1/arthropod/collection/./1',
    '/api/v1/arthropod/collection/1%00',
  ];

  it('refuses dot segments, encoded or doubled slashes and backslashes with 400, forwarding nothing', async () => {
    const before = stack.proxy.seen.length;
    for (const path of tricky) {
      const res = await rawRequest(stack.url, 'GET', path, headers());
      expect(res.status, path).toBe(400);
      expect(JSON.parse(res.body), path).toMatchObject({ error: { code: 'bad_request' } });
    }
    expect(stack.proxy.seen.length).toBe(before);
  });

  it('answers 404 for paths not on the list and 405 for listed paths with another method', async () => {
    const before = stack.proxy.seen.length;
    const cases: Array<[string, string, number]> = [
      ['PUT', '/api/v1/agency/token', 405],
      ['DELETE', '/api/v1/user/1', 405],
      ['GET', '/api/v1/me', 404],
      ['GET', '/api/v1/arthropod/collection/abc', 404],
      ['GET', '/api/v1/arthropod/collection/0', 404],
      ['GET', '/api/v1/arthropod/collection/1/extra', 404],
      ['GET', '/api/login', 404],
      ['DELETE', '/api/v1/arthropod/pool/test/1', 405],
      ['DELETE', '/api/v1/arthropod/collection', 405],
      ['POST', '/api/v1/species', 405],
      ['PUT', '/api/v1/arthropod/pool/test', 405],
    ];
    for (const [method, path, status] of cases) {
      const res = await rawRequest(stack.url, method, path, headers());
      expect(res.status, `${method} ${path}`).toBe(status);
      expect(JSON.parse(res.body).error.code).toBe(
        status === 404 ? 'not_found' : 'method_not_allowed',
      );
    }
    expect(stack.proxy.seen.length).toBe(before);
  });

  it('forwards deletes the app queues: a technician hears the upstream refusal, a manager retires the record', async () => {
    const created = await stack.api(COLLECTIONS, {
      method: 'POST',
      cookie,
      body: makeCollection(),
    });
    const { id } = created.json<{ id: number }>();
    const asTech = await stack.api(`${COLLECTIONS}/${id}`, { method: 'DELETE', cookie });
    expect(asTech.status).toBe(403);
    expect(asTech.json()).toMatchObject({ error: { code: 'forbidden' } });
    const managerCookie = await stack.signIn('demo-manager');
    const asManager = await stack.api(`${COLLECTIONS}/${id}`, {
      method: 'DELETE',
      cookie: managerCookie,
    });
    expect(asManager.status).toBe(200);
    const list = await stack.api(`${COLLECTIONS}?pageSize=1000`, { cookie: managerCookie });
    expect(list.json<{ rows: Array<{ id: number }> }>().rows.map((r) => r.id)).not.toContain(id);
  });

  it('accepts JSON bodies only, up to 1 MiB, with the contract error body', async () => {
    const before = stack.proxy.seen.length;
    const form = await stack.api(COLLECTIONS, {
      method: 'POST',
      cookie,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'a=1',
    });
    expect(form.status).toBe(415);
    expect(form.json()).toMatchObject({ error: { code: 'unsupported_media_type' } });
    const broken = await stack.api(COLLECTIONS, {
      method: 'POST',
      cookie,
      body: '{"collection_date":',
    });
    expect(broken.status).toBe(400);
    expect(broken.json()).toMatchObject({ error: { code: 'bad_request' } });
    const big = await stack.api(COLLECTIONS, {
      method: 'POST',
      cookie,
      body: { comments: 'x'.repeat(1024 * 1024) },
    });
    expect(big.status).toBe(413);
    expect(big.json()).toMatchObject({ error: { code: 'payload_too_large' } });
    const badKey = await stack.api(COLLECTIONS, {
      method: 'POST',
      cookie,
      headers: { 'idempotency-key': 'has spaces and ünïcode' },
      body: makeCollection(),
    });
    expect(badKey.status).toBe(400);
    expect(stack.proxy.seen.length).toBe(before);
  });
});

describe('upstream failures', () => {
  it('answers 502 upstream_unavailable when the upstream refuses connections', async () => {
    const lonely = await stack.startSibling({ upstreamUrl: 'http://127.0.0.1:9' });
    const res = await http(`${lonely.url}${COLLECTIONS}`, { headers: { 'x-csrf': '1', cookie } });
    expect(res.status).toBe(502);
    expect(res.json()).toMatchObject({ error: { code: 'upstream_unavailable' } });
  });

  it('answers 504 upstream_timeout when the upstream does not answer in time', async () => {
    const impatient = await stack.startSibling({ upstreamTimeoutMs: 300 });
    const lost = stack.proxy.arm('GET', '/v1/arthropod/collection', 'hold');
    const started = Date.now();
    const res = await http(`${impatient.url}${COLLECTIONS}`, {
      headers: { 'x-csrf': '1', cookie },
    });
    await lost;
    expect(res.status).toBe(504);
    expect(res.json()).toMatchObject({ error: { code: 'upstream_timeout' } });
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
