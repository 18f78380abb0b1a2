import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBody } from '#shared/schemas/error';
import { startBffStack, type BffStack } from './helpers/bff-stack';
import { makeCollection } from './helpers/record-bodies';
import { rawRequest } from './helpers/raw-request';

/**
 * The router decodes a path before it matches it (`/%61pi/session` is `/api/session` to it),
 * so a guard that reads the raw path must never see another path than the route does: the CSRF
 * check, the API's no-store, the app shell's "is this /api?" would otherwise all be skipped by
 * spelling a letter of `/api` in percent-encoding. No client encodes an unreserved character
 * (RFC 3986 §2.3: letters, digits, - . _ ~), so such a path is refused (400) before anything.
 */

let stack: BffStack;
let cookie: string;
beforeAll(async () => {
  stack = await startBffStack();
  cookie = await stack.signIn();
});
afterAll(async () => {
  await stack?.close();
});

const upstreamPosts = () =>
  stack.proxy.seen.filter((r) => r.method === 'POST' && r.path.startsWith('/v1/')).length;

function crossSite(method: string, path: string, body?: string) {
  // What a page on another site gets to send: the cookie (a same-site sibling, or a browser
  // without SameSite), no X-CSRF, no same-origin Origin.
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const { hostname, port } = new URL(stack.url);
    void import('node:http').then(({ request }) => {
      const req = request(
        {
          host: hostname,
          port,
          method,
          path,
          headers: {
            cookie,
            origin: 'https://evil.example',
            'sec-fetch-site': 'cross-site',
            ...(body ? { 'content-type': 'application/json' } : {}),
          },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (text += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  });
}

describe('a path that spells /api with percent-encoded letters', () => {
  it('creates nothing: no X-CSRF, another Origin, POST /%61pi/v1/… → 400', async () => {
    const before = upstreamPosts();
    const res = await crossSite(
      'POST',
      '/%61pi/v1/arthropod/collection',
      JSON.stringify(makeCollection()),
    );
    expect(res.status, res.body).toBe(400);
    expect(errorBody.parse(JSON.parse(res.body)).error.code).toBe('bad_request');
    expect(upstreamPosts()).toBe(before);
  });

  it('signs nobody out: DELETE /%61pi/session → 400, and the session still works', async () => {
    const res = await crossSite('DELETE', '/%61pi/session');
    expect(res.status, res.body).toBe(400);
    expect((await stack.api('/api/session', { cookie })).status).toBe(200);
  });

  it('reads nothing without X-CSRF, and no answer goes without no-store', async () => {
    for (const path of ['/%61pi/session', '/%61%70%69/v1/arthropod/collection', '/a%70i/config']) {
      const res = await rawRequest(stack.url, 'GET', path, { cookie });
      expect(res.status, `${path}: ${res.body}`).toBe(400);
      expect(errorBody.parse(JSON.parse(res.body)).error.code).toBe('bad_request');
    }
  });

  it('refuses an encoded digit of a record id the same way', async () => {
    const res = await rawRequest(stack.url, 'GET', '/api/v1/arthropod/collection/%31', {
      cookie,
      'x-csrf': '1',
    });
    expect(res.status, res.body).toBe(400);
  });
});
