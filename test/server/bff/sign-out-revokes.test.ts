import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBffStack, appRequest, type BffStack } from './helpers/bff-stack';
import { cookieFrom, http } from './helpers/http';
import {
  PUBLIC_PASSWORD,
  startPublicLikeUpstream,
  type PublicLikeUpstream,
} from './helpers/public-like-upstream';

/**
 * Signing out ends the upstream token too, where the upstream can (the records service's
 * DELETE /v1/me/token): a token copied from the BFF's database or a log before the sign-out is
 * then worthless. The sign-out itself never depends on it: an upstream without the route, or
 * one that does not answer, still gets the browser signed out and the server session dropped.
 */

let stack: BffStack;
let publicLike: PublicLikeUpstream;

beforeAll(async () => {
  stack = await startBffStack();
  publicLike = await startPublicLikeUpstream();
});
afterAll(async () => {
  await stack?.close();
  await publicLike?.close();
});

/** The token of the latest sign-in: the BFF asks GET /v1/me with it right after /login. */
function lastUpstreamToken(): string {
  const head = [...stack.proxy.seen]
    .reverse()
    .find((r) => r.method === 'GET' && r.path === '/v1/me')?.head;
  const token = /authorization: Bearer (\S+)/i.exec(head ?? '')?.[1];
  if (!token) throw new Error('the upstream saw no bearer token');
  return token;
}

const recordsMe = (token: string) =>
  http(`${stack.recordsUrl}/v1/me`, { headers: { authorization: `Bearer ${token}` } });

describe('DELETE /api/session', () => {
  it('revokes the upstream token: the records service refuses it afterwards', async () => {
    const cookie = await stack.signIn();
    const token = lastUpstreamToken();
    expect((await recordsMe(token)).status).toBe(200);

    const out = await stack.api('/api/session', { method: 'DELETE', cookie });
    expect(out.status).toBe(204);

    const after = await recordsMe(token);
    expect(after.status).toBe(401);
    expect(after.json()).toMatchObject({ error: { code: 'unauthenticated' } });
    expect((await stack.api('/api/session', { cookie })).status).toBe(401);
  });

  it('revokes the previous token when the same browser signs in again', async () => {
    const cookie = await stack.signIn();
    const first = lastUpstreamToken();
    const again = await stack.api('/api/session', {
      method: 'POST',
      cookie,
      body: { username: 'demo-tech', password: 'test-password-correct-horse' },
    });
    expect(again.status).toBe(200);
    expect((await recordsMe(first)).status).toBe(401);
    expect((await recordsMe(lastUpstreamToken())).status).toBe(200);
  });

  it('still signs out when the revocation gets no answer', async () => {
    const impatient = await stack.startSibling({ upstreamTimeoutMs: 1_000 });
    const api = appRequest(impatient.url);
    const signedIn = await api('/api/session', {
      method: 'POST',
      body: { username: 'demo-tech', password: 'test-password-correct-horse' },
    });
    const cookie = cookieFrom(signedIn)!;
    // Its answer is swallowed; the promise (resolved when that answer arrives) is not awaited:
    // once the BFF gives up, the connection closes and the answer may never come.
    void stack.proxy.arm('DELETE', '/v1/me/token', 'hold');
    const sent = stack.proxy.seen.length;
    const started = Date.now();
    const out = await api('/api/session', { method: 'DELETE', cookie });
    expect(out.status).toBe(204);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(out.headers['set-cookie']).toMatch(/__Host-trapline=;/);
    expect((await api('/api/session', { cookie })).status).toBe(401);
    const tried = stack.proxy.seen.slice(sent).filter((r) => r.path === '/v1/me/token');
    expect(tried).toHaveLength(1);
  });

  it('still signs out against an upstream without the route (404)', async () => {
    const bff = await stack.startSibling({ upstreamUrl: publicLike.url });
    const api = appRequest(bff.url);
    const signedIn = await api('/api/session', {
      method: 'POST',
      body: { username: 'field-tech', password: PUBLIC_PASSWORD },
    });
    expect(signedIn.status).toBe(200);
    const cookie = cookieFrom(signedIn)!;
    const out = await api('/api/session', { method: 'DELETE', cookie });
    expect(out.status).toBe(204);
    expect((await api('/api/session', { cookie })).status).toBe(401);
    expect(publicLike.hits.get('DELETE /v1/me/token')).toBe(1);
  });
});
