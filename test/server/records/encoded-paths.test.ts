import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestRecords, type TestRecords } from '../helpers/records-app';

/**
 * The router decodes a path before it matches it (`/%761/agency` is `/v1/agency` to it), so
 * whether a request needs a token must be decided on the path the router matched, never on the
 * raw URL: otherwise spelling one letter of `/v1` in percent-encoding reads every agency without
 * a token, and a route that needs the caller answers 500. An R client or a script reaches the
 * records service directly, without the BFF's path guard in front.
 */

let t: TestRecords;
let token: string;
beforeAll(async () => {
  t = await buildTestRecords();
  token = await t.login('demo-tech');
});
afterAll(() => t.close());

/** Every /v1 route as registered, with its :id filled in. */
function v1Routes() {
  return t.app.recordsRoutes
    .filter((r) => r.url.startsWith('/v1') && r.method !== 'HEAD' && r.method !== 'OPTIONS')
    .map((r) => ({ method: r.method, path: r.url.replace(/:[a-z]+/gi, '1') }));
}

const hex = (c: string) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`;

/** The same path with unreserved characters percent-encoded, as an attacker would spell it. */
function encodedVariants(path: string): string[] {
  const lastLetter = path.search(/[a-z](?=[^a-z]*$)/);
  return [
    `/${hex('v')}${path.slice(2)}`,
    `/v${hex('1')}${path.slice(3)}`,
    `/${hex('v')}${hex('1')}${path.slice(3)}`,
    `${path.slice(0, lastLetter)}${hex(path[lastLetter])}${path.slice(lastLetter + 1)}`,
    `/${hex('V')}${path.slice(2)}`,
    path.replace(/[a-z0-9]/gi, hex),
  ];
}

const bodyFor = (method: string) =>
  method === 'POST' || method === 'PUT' ? { payload: { comments: 'probe' } } : {};

describe('encoded /v1 paths', () => {
  it('covers every registered /v1 route', () => {
    expect(v1Routes().length).toBeGreaterThan(25);
  });

  it('never answer without a token: every route, every spelling → 401 or 400', async () => {
    const failures: string[] = [];
    for (const { method, path } of v1Routes()) {
      for (const url of [path, ...encodedVariants(path)]) {
        const res = await t.app.inject({ method: method as 'GET', url, ...bodyFor(method) });
        if (res.statusCode !== 401 && res.statusCode !== 400)
          failures.push(`${method} ${url} → ${res.statusCode}`);
        else
          expect(res.json().error.code, `${method} ${url}`).toMatch(
            /^(unauthenticated|bad_request)$/,
          );
      }
    }
    expect(failures).toEqual([]);
  });

  it('never answer 500 with a token either: refused as a bad path (400)', async () => {
    const failures: string[] = [];
    for (const { method, path } of v1Routes()) {
      for (const url of encodedVariants(path)) {
        const res = await t.app.inject({
          method: method as 'GET',
          url,
          headers: t.auth(token),
          ...bodyFor(method),
        });
        if (res.statusCode !== 400) failures.push(`${method} ${url} → ${res.statusCode}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('writes nothing through an encoded path', async () => {
    const before = await t.db.query<{ n: number }>('select count(*)::int as n from site');
    const res = await t.app.inject({
      method: 'POST',
      url: '/%761/site',
      headers: t.auth(token),
      payload: { code: '123456', name: 'x' },
    });
    expect(res.statusCode).toBe(400);
    const after = await t.db.query<{ n: number }>('select count(*)::int as n from site');
    expect(after.rows[0].n).toBe(before.rows[0].n);
  });

  it('still reads the agency list with a token on the plain path', async () => {
    const fresh = await t.login('demo-tech');
    const res = await t.app.inject({ method: 'GET', url: '/v1/agency', headers: t.auth(fresh) });
    expect(res.statusCode).toBe(200);
    const anon = await t.app.inject({ method: 'GET', url: '/v1/agency' });
    expect(anon.statusCode).toBe(401);
  });
});
