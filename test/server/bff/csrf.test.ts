import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBffStack, type BffStack } from './helpers/bff-stack';
import type { HttpAnswer } from './helpers/http';

let stack: BffStack;
let cookie: string;
const answers: HttpAnswer[] = [];

beforeAll(async () => {
  stack = await startBffStack();
  cookie = await stack.signIn();
});
afterAll(async () => {
  await stack?.close();
});

/** Every /api route of the running BFF as registered, with :id filled in. */
function apiRoutes() {
  return stack.bff.app.bffRoutes
    .filter((r) => r.url.startsWith('/api'))
    .map((r) => ({ method: r.method, path: r.url.replace(':id', '1') }));
}
const STATE_CHANGING = new Set(['POST', 'PUT', 'DELETE', 'PATCH']);
const isHealth = (r: { method: string; path: string }) =>
  r.path === '/api/health' && (r.method === 'GET' || r.method === 'HEAD');

async function call(method: string, path: string, headers: Record<string, string>, csrf: boolean) {
  const res = await stack.api(path, {
    method: method as 'GET',
    cookie,
    csrf,
    headers,
    ...(STATE_CHANGING.has(method) ? { body: {} } : {}),
  });
  answers.push(res);
  return res;
}

describe('CSRF defence over the whole route table', () => {
  it('covers every route the BFF registered (sessions, lookups, config, the proxy allow-list)', () => {
    const routes = apiRoutes();
    expect(routes.length).toBeGreaterThan(30);
    for (const p of [
      '/api/session',
      '/api/lookups',
      '/api/config',
      '/api/v1/site',
      '/api/v1/arthropod/pool/test/1',
    ]) {
      expect(routes.some((r) => r.path === p)).toBe(true);
    }
  });

  it('refuses every /api route but GET /api/health without X-CSRF: 1 (403 csrf_required)', async () => {
    for (const r of apiRoutes().filter((x) => !isHealth(x))) {
      const res = await call(r.method, r.path, { origin: stack.url }, false);
      expect(res.status, `${r.method} ${r.path}`).toBe(403);
      if (r.method !== 'HEAD') {
        expect(res.json(), `${r.method} ${r.path}`).toMatchObject({
          error: { code: 'csrf_required' },
        });
      }
    }
  });

  it('refuses X-CSRF values other than 1', async () => {
    const res = await stack.api('/api/session', {
      cookie,
      csrf: false,
      headers: { 'x-csrf': 'true' },
    });
    expect(res.status).toBe(403);
  });

  it('answers GET /api/health without X-CSRF', async () => {
    const res = await stack.api('/api/health', { csrf: false });
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', upstream: 'reachable' });
  });

  it('refuses every state-changing route from another origin, even with X-CSRF', async () => {
    const changing = apiRoutes().filter((r) => STATE_CHANGING.has(r.method));
    expect(changing.length).toBeGreaterThan(8);
    const hostile: Array<Record<string, string>> = [
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { origin: stack.url, 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      {},
    ];
    for (const r of changing) {
      for (const headers of hostile) {
        const res = await call(
          r.method,
          r.path,
          { ...headers, ...(headers.origin ? {} : { origin: '' }) },
          true,
        );
        expect(res.status, `${r.method} ${r.path} ${JSON.stringify(headers)}`).toBe(403);
        expect(res.json()).toMatchObject({ error: { code: 'csrf_required' } });
      }
    }
  });

  it('lets same-origin state changes through, by Origin or by Sec-Fetch-Site alone', async () => {
    const byOrigin = await call('DELETE', '/api/session', { origin: stack.url }, true);
    expect(byOrigin.status).toBe(204);
    cookie = await stack.signIn();
    const byFetchMetadata = await call(
      'DELETE',
      '/api/session',
      { origin: '', 'sec-fetch-site': 'same-origin' },
      true,
    );
    expect(byFetchMetadata.status).toBe(204);
    cookie = await stack.signIn();
  });

  it('never sends CORS headers, not even to a preflight', async () => {
    const preflight = await stack.api('/api/v1/site', {
      method: 'OPTIONS',
      csrf: false,
      headers: {
        origin: 'https://evil.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'x-csrf, content-type',
      },
    });
    answers.push(preflight);
    expect(preflight.status).toBeGreaterThanOrEqual(400);
    expect(answers.length).toBeGreaterThan(100);
    for (const a of answers) {
      expect(Object.keys(a.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
    }
  });
});
