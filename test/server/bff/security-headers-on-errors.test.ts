import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBffStack, type BffStack } from './helpers/bff-stack';
import { http, type HttpAnswer } from './helpers/http';
import { rawRequest } from './helpers/raw-request';

/**
 * Every answer of the BFF carries the security headers, the errors raised before routing or in
 * an onRequest hook (bad path, missing CSRF header, body parsing) included: an error page is
 * served from the app's origin like any other.
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

type Answer = { status: number; headers: HttpAnswer['headers'] };

const cases: Array<[string, number, () => Promise<Answer>]> = [
  [
    'an ambiguous path (400)',
    400,
    async () => {
      const res = await rawRequest(stack.url, 'GET', '/api/v1/%2e%2e/login', { 'x-csrf': '1' });
      return { status: res.status, headers: res.headers };
    },
  ],
  ['a request without X-CSRF (403)', 403, () => stack.api('/api/session', { csrf: false })],
  [
    'a change from another origin (403)',
    403,
    () =>
      stack.api('/api/session', {
        method: 'DELETE',
        headers: { origin: 'https://evil.example' },
      }),
  ],
  [
    'malformed JSON (400)',
    400,
    () => stack.api('/api/session', { method: 'POST', body: '{"username":' }),
  ],
  [
    'a body over 1 MiB (413)',
    413,
    () =>
      stack.api('/api/v1/site', {
        method: 'POST',
        cookie,
        body: JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 10) }),
      }),
  ],
  [
    'a body that is not JSON (415)',
    415,
    () =>
      stack.api('/api/session', {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: 'username=a',
      }),
  ],
  ['no session (401)', 401, () => stack.api('/api/session')],
  ['an unknown /api path (404)', 404, () => stack.api('/api/nothing-here', { cookie })],
  [
    'a method the proxy does not allow (405)',
    405,
    () => stack.api('/api/v1/site', { method: 'PATCH', cookie, body: {} }),
  ],
  ['an unknown page outside /api (404)', 404, () => http(`${stack.url}/nothing-here.txt`)],
  ['the health check (200)', 200, () => http(`${stack.url}/api/health`)],
];

describe('security headers on every answer of the BFF', () => {
  it.each(cases)('%s', async (_name, status, send) => {
    const res = await send();
    expect(res.status).toBe(status);
    const h = res.headers;
    expect(h['content-security-policy']).toMatch(/default-src 'self'/);
    expect(h['content-security-policy']).toMatch(/frame-ancestors 'none'/);
    expect(h['x-content-type-options']).toBe('nosniff');
    expect(h['x-frame-options']).toBe('DENY');
    expect(h['referrer-policy']).toBe('no-referrer');
    expect(h['permissions-policy']).toBe('geolocation=(self), camera=(self)');
    expect(h['cross-origin-opener-policy']).toBe('same-origin');
  });
});
