import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROXY_ALLOW_LIST } from '../../../src/server/bff/proxy-allow-list';
import { hashSessionId } from '../../../src/server/bff/session-store';
import { startBffStack, type BffStack } from './helpers/bff-stack';

let stack: BffStack;
beforeAll(async () => {
  stack = await startBffStack();
});
afterAll(async () => {
  await stack?.close();
});

/** Every /api route of the running BFF as registered, with :id filled in. */
function apiRoutes() {
  return stack.bff.app.bffRoutes
    .filter((r) => r.url.startsWith('/api'))
    .map((r) => ({ method: r.method, url: r.url, path: r.url.replace(':id', '1') }));
}

/** The only /api routes that answer without a current upstream token, and why. */
const NO_SESSION_NEEDED: Record<string, string> = {
  'GET /api/health': 'liveness for monitors: says only whether the upstream answers',
  'HEAD /api/health': 'the same for monitors that probe with HEAD',
  'POST /api/session': 'signing in is how a reauth_required is answered',
  'DELETE /api/session': 'signing out must work whatever state the token is in',
  'POST /api/session/password':
    'choosing a password at a first sign-in (temporary password) is how that session starts',
};

const STATE_CHANGING = new Set(['POST', 'PUT', 'DELETE', 'PATCH']);

describe('every /api route once the upstream token has expired', () => {
  it('answers 401 reauth_required on every route but the listed exceptions', async () => {
    const cookie = await stack.signIn();
    await stack.records.db.query(
      "update bff_session set token_expires_at = now() - interval '1 second', renew_refused = true where id_hash = $1",
      [hashSessionId(cookie.split('=')[1])],
    );
    const routes = apiRoutes();
    for (const exception of Object.keys(NO_SESSION_NEEDED)) {
      expect(
        routes.some((r) => `${r.method} ${r.url}` === exception),
        exception,
      ).toBe(true);
    }
    const guarded = routes.filter((r) => !(`${r.method} ${r.url}` in NO_SESSION_NEEDED));
    expect(guarded.length).toBeGreaterThan(30);
    const seenBefore = stack.proxy.seen.length;
    for (const r of guarded) {
      const res = await stack.api(r.path, {
        method: r.method as 'GET',
        cookie,
        ...(STATE_CHANGING.has(r.method) ? { body: {} } : {}),
      });
      expect(res.status, `${r.method} ${r.path}`).toBe(401);
      if (r.method !== 'HEAD') {
        expect(res.json(), `${r.method} ${r.path}`).toMatchObject({
          error: { code: 'reauth_required' },
        });
      }
    }
    // Nothing was sent upstream with the expired token.
    expect(stack.proxy.seen.slice(seenBefore)).toEqual([]);
  });

  it('needs a session for GET /api/config, which the app reads only once signed in', async () => {
    const res = await stack.api('/api/config');
    expect(res.status).toBe(401);
    expect(res.json()).toMatchObject({ error: { code: 'unauthenticated' } });
    const cookie = await stack.signIn();
    const ok = await stack.api('/api/config', { cookie });
    expect(ok.status).toBe(200);
    expect(Object.keys(ok.json())).toEqual(['tileUrl', 'tileAttribution', 'tileBulkDownload']);
  });
});

describe('the /api/v1 proxy routes', () => {
  it('register exactly the allow-listed methods and paths, no automatic HEAD', () => {
    const registered = apiRoutes()
      .filter((r) => r.url.startsWith('/api/v1/'))
      .map((r) => `${r.method} ${r.url}`)
      .sort();
    const allowed = PROXY_ALLOW_LIST.map((r) => `${r.method} /api${r.path}`).sort();
    expect(registered).toEqual(allowed);
  });

  it('answers HEAD on a listed path with 405 and sends nothing upstream', async () => {
    const cookie = await stack.signIn();
    const before = stack.proxy.seen.length;
    for (const path of ['/api/v1/site', '/api/v1/arthropod/collection/1', '/api/v1/species']) {
      const res = await stack.api(path, { method: 'HEAD', cookie });
      expect(res.status, path).toBe(405);
      expect(String(res.headers.allow), path).toContain('GET');
    }
    expect(stack.proxy.seen.slice(before)).toEqual([]);
  });
});
