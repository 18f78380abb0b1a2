import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBffStack, type BffStack } from './helpers/bff-stack';

// The BFF keeps a tablet signed in past the login token's hour by renewing the token on the
// tablet's next request (issue 35), within the renew window, and never for a deactivated user.
let stack: BffStack;
let clock = Date.parse('2026-07-14T07:00:00.000Z');
const now = () => new Date(clock);
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

beforeAll(async () => {
  stack = await startBffStack({ records: { now }, bff: { now } });
});
afterAll(() => stack.close());

/** How many times the records service exchanged a token of `username`. */
async function renewals(username: string): Promise<number> {
  const { rows } = await stack.records.db.query<{ n: number }>(
    `select count(*)::int as n from api_token t join app_user u on u.id = t.user_id
      where lower(u.username) = lower($1) and t.family is not null`,
    [username],
  );
  return rows[0].n;
}

describe('a sign-in through the BFF', () => {
  it('lasts the working day: the token is renewed once when due, for a burst of requests', async () => {
    const cookie = await stack.signIn('demo-tech');
    const before = await renewals('demo-tech');
    clock += 30 * MINUTE;
    expect((await stack.api('/api/v1/site', { cookie })).status).toBe(200);
    expect(await renewals('demo-tech')).toBe(before);
    // Four minutes left: due. A sync's burst of requests shares one renewal.
    clock += 26 * MINUTE;
    const burst = await Promise.all(
      Array.from({ length: 8 }, () => stack.api('/api/v1/site', { cookie })),
    );
    expect(burst.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(await renewals('demo-tech')).toBe(before + 1);
    // Hour after hour, a tablet in use is never asked for the password.
    for (let hour = 0; hour < 9; hour++) {
      clock += 58 * MINUTE;
      const res = await stack.api('/api/v1/site', { cookie });
      expect(res.status, `hour ${hour}: ${res.text}`).toBe(200);
    }
    const session = await stack.api('/api/session', { cookie });
    expect(Date.parse(session.json<{ expiresAt: string }>().expiresAt)).toBeGreaterThan(clock);
  });

  it('survives a night and a long weekend unused, not more than the renew window', async () => {
    const cookie = await stack.signIn('demo-tech');
    clock += 14 * 60 * MINUTE;
    expect((await stack.api('/api/v1/site', { cookie })).status).toBe(200);
    clock += 3 * DAY;
    expect((await stack.api('/api/v1/site', { cookie })).status).toBe(200);
    clock += 8 * DAY;
    const expired = await stack.api('/api/v1/site', { cookie });
    expect(expired.status).toBe(401);
    // Past the window the session itself has ended: the app opens the sign-in sheet for both.
    expect(['reauth_required', 'unauthenticated']).toContain(
      expired.json<{ error: { code: string } }>().error.code,
    );
  });

  it('is not renewed for a user deactivated meanwhile: the password is asked', async () => {
    const cookie = await stack.signIn('demo-tech');
    await stack.records.db.query(`update app_user set active = false where username = 'demo-tech'`);
    try {
      clock += 61 * MINUTE;
      const res = await stack.api('/api/v1/site', { cookie });
      expect(res.status).toBe(401);
      expect(res.json()).toMatchObject({ error: { code: 'reauth_required' } });
    } finally {
      await stack.records.db.query(
        `update app_user set active = true where username = 'demo-tech'`,
      );
    }
  });

  it('asks the upstream once when it refuses to renew, then sends nothing with the old token', async () => {
    const cookie = await stack.signIn('demo-tech');
    clock += 61 * MINUTE;
    // The upstream revoked the sign-in (an operator, a copied token): renewal is refused.
    await stack.records.db.query(`update api_token set revoked_at = now() where kind = 'login'`);
    const seenBefore = stack.proxy.seen.length;
    for (const path of ['/api/v1/site', '/api/session', '/api/v1/site']) {
      const res = await stack.api(path, { cookie });
      expect(res.status, path).toBe(401);
      expect(res.json(), path).toMatchObject({ error: { code: 'reauth_required' } });
    }
    expect(stack.proxy.seen.slice(seenBefore).map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /login/renew',
    ]);
  });

  it('two BFF processes on one session table renew it once between them', async () => {
    const sibling = await stack.startSibling({ now });
    const cookie = await stack.signIn('demo-manager');
    const before = await renewals('demo-manager');
    clock += 58 * MINUTE;
    const otherApi = (await import('./helpers/bff-stack')).appRequest(sibling.url);
    const [a, b] = await Promise.all([
      stack.api('/api/v1/site', { cookie }),
      otherApi('/api/v1/site', { cookie }),
    ]);
    expect([a.status, b.status], `${a.text} ${b.text}`).toEqual([200, 200]);
    expect(await renewals('demo-manager')).toBe(before + 1);
    clock += 2 * MINUTE;
    expect((await otherApi('/api/v1/site', { cookie })).status).toBe(200);
    expect((await stack.api('/api/v1/site', { cookie })).status).toBe(200);
  });
});

describe('signing out through the BFF', () => {
  /** The upstream token the BFF sent last (a copy someone could have taken before sign-out). */
  function lastUpstreamToken(): string {
    const head = stack.proxy.seen.at(-1)?.head ?? '';
    const match = /^authorization: Bearer (\S+)\r?$/im.exec(head);
    if (!match) throw new Error(`no bearer token in ${head}`);
    return match[1];
  }
  const renewUpstream = (token: string) =>
    fetch(`${stack.recordsUrl}/login/renew`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });

  it('the morning after ends the upstream sign-in too: its expired token is not renewable', async () => {
    const cookie = await stack.signIn('demo-tech');
    expect((await stack.api('/api/v1/site', { cookie })).status).toBe(200);
    const token = lastUpstreamToken();
    // Overnight the token expired; within the renew window it could still be exchanged.
    clock += 14 * 60 * MINUTE;
    expect((await stack.api('/api/session', { method: 'DELETE', cookie })).status).toBe(204);
    const copy = await renewUpstream(token);
    expect(copy.status).toBe(401);
  });

  it('within the hour revokes the token as before', async () => {
    const cookie = await stack.signIn('demo-tech');
    expect((await stack.api('/api/v1/site', { cookie })).status).toBe(200);
    const token = lastUpstreamToken();
    expect((await stack.api('/api/session', { method: 'DELETE', cookie })).status).toBe(204);
    expect((await renewUpstream(token)).status).toBe(401);
  });
});
