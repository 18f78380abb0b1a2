import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRecords } from '../../../src/server/records/app';
import { buildTestRecords, TEST_PASSWORD, type TestRecords } from '../helpers/records-app';

// Field trial (issue 35): a tablet signed in at 7 am was signed out at 8 am (the login token's
// hour), and after a night with the server off. POST /login/renew exchanges a login token, live
// or expired within the renew window, once, for a new one: the BFF keeps its users signed in
// without holding their passwords.
let t: TestRecords;
let clock = Date.parse('2026-07-14T07:00:00.000Z');
const HOUR = 3600_000;
const WEEK = 7 * 24 * HOUR;

beforeAll(async () => {
  t = await buildTestRecords({ now: () => new Date(clock) });
});
afterAll(() => t.close());

async function signIn(username = 'demo-tech'): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/login',
    payload: { username, password: TEST_PASSWORD },
  });
  expect(res.statusCode).toBe(200);
  return res.json().token as string;
}

const renew = (token: string | null) =>
  t.app.inject({
    method: 'POST',
    url: '/login/renew',
    headers: token === null ? {} : { authorization: `Bearer ${token}` },
  });

const sites = (token: string) =>
  t.app.inject({ method: 'GET', url: '/v1/site', headers: { authorization: `Bearer ${token}` } });

describe('POST /login/renew', () => {
  it('gives a live login token a new one an hour ahead, for the same user and agency', async () => {
    const token = await signIn();
    clock += 50 * 60_000;
    const res = await renew(token);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body.token).not.toBe(token);
    expect(body.expires_at).toBe(new Date(clock + HOUR).toISOString());
    expect(body.agencies).toEqual([{ id: 1, name: 'Demo Vector Control District' }]);
    const me = await t.app.inject({
      method: 'GET',
      url: '/v1/me',
      headers: { authorization: `Bearer ${body.token}` },
    });
    expect(me.json()).toMatchObject({ user: { username: 'demo-tech' } });
    // The old token still answers for the requests already under way, for a minute at most.
    expect((await sites(token)).statusCode).toBe(200);
    clock += 61_000;
    expect((await sites(token)).statusCode).toBe(401);
    expect((await sites(body.token)).statusCode).toBe(200);
  });

  it('renews a token expired overnight (the server was off), within the week', async () => {
    const token = await signIn();
    clock += 14 * HOUR;
    expect((await sites(token)).json().error.code).toBe('token_expired');
    const res = await renew(token);
    expect(res.statusCode).toBe(200);
    expect((await sites(res.json().token)).statusCode).toBe(200);
  });

  it('renews a token once: two BFF processes racing get one new token between them', async () => {
    const token = await signIn();
    const [a, b] = await Promise.all([renew(token), renew(token)]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 401]);
    const [won, lost] = a.statusCode === 200 ? [a, b] : [b, a];
    expect(lost.json().error.code).toBe('token_renewed');
    // The race harmed nobody: the winner's token goes on.
    clock += 30_000;
    expect((await sites(won.json().token)).statusCode).toBe(200);
  });

  it('ends the whole sign-in when a token is exchanged again later (it was copied)', async () => {
    const token = await signIn();
    const first = await renew(token);
    const second = await renew(first.json().token);
    expect(second.statusCode).toBe(200);
    clock += 2 * 60_000;
    const reused = await renew(token);
    expect(reused.statusCode).toBe(401);
    expect(reused.json().error.code).toBe('token_renewed');
    expect((await sites(second.json().token)).statusCode).toBe(401);
  });

  it('refuses a token expired longer than the window: the password is asked again', async () => {
    const token = await signIn();
    clock += HOUR + WEEK + 1000;
    const res = await renew(token);
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe('token_expired');
  });

  it('refuses a deactivated user, an agency token, a revoked, an unknown and a missing token', async () => {
    const token = await signIn('demo-tech');
    await t.db.query(`update app_user set active = false where username = 'demo-tech'`);
    try {
      const res = await renew(token);
      expect(res.statusCode).toBe(401);
      expect(res.json().error.code).toBe('unauthenticated');
    } finally {
      await t.db.query(`update app_user set active = true where username = 'demo-tech'`);
    }
    const manager = await signIn('demo-manager');
    const made = await t.app.inject({
      method: 'POST',
      url: '/v1/agency/token',
      headers: { authorization: `Bearer ${manager}` },
    });
    expect(made.statusCode).toBe(201);
    const agencyToken = made.json().token as string;
    const revoked = await signIn('demo-manager');
    await t.app.inject({
      method: 'DELETE',
      url: '/v1/me/token',
      headers: { authorization: `Bearer ${revoked}` },
    });
    for (const bad of [agencyToken, revoked, 'x'.repeat(43), null]) {
      const res = await renew(bad);
      expect(res.statusCode, String(bad)).toBe(401);
      expect(res.json().error).toMatchObject({ code: 'unauthenticated' });
      expect(res.json().error.message).toBeTypeOf('string');
    }
  });
});

describe('POST /login/renew and a temporary password', () => {
  it('does not carry a temporary password’s sign-in past the temporary password’s week', async () => {
    const manager = await signIn('demo-manager');
    const made = await t.app.inject({
      method: 'POST',
      url: '/v1/user',
      headers: { authorization: `Bearer ${manager}` },
      payload: { username: 'renew-temporary', full_name: 'Renew Temporary', role: 'user' },
    });
    expect(made.statusCode, made.body).toBe(201);
    const temporary = made.json().temporary_password as string;
    // Signed in with it on its last day: only choosing a password is allowed.
    clock += WEEK - 30 * 60_000;
    const first = await t.app.inject({
      method: 'POST',
      url: '/login',
      payload: { username: 'renew-temporary', password: temporary },
    });
    expect(first.json().password_change_required).toBe(true);
    // Within its week, a renewal is harmless: the sign-in still only chooses a password.
    const renewed = await renew(first.json().token as string);
    expect(renewed.statusCode).toBe(200);
    // The temporary password has expired (login now says temporary_password_expired): its
    // sign-in must not be renewed into choosing a password with it after all.
    clock += HOUR;
    const late = await renew(renewed.json().token as string);
    expect(late.statusCode).toBe(401);
    expect(late.json().error.code).toBe('temporary_password_expired');
  });
});

describe('POST /login/renew with a window longer than a week', () => {
  it('still renews after a restart when the token expired more than a week ago', async () => {
    const window = 14 * 24 * 3600;
    const token = await signIn();
    clock += HOUR + 10 * 24 * HOUR;
    // `npm start` again after ten days off: housekeeping runs as the service starts.
    const restarted = await buildRecords({
      db: t.db,
      now: () => new Date(clock),
      renewWindowSeconds: window,
    });
    try {
      await restarted.ready();
      const res = await restarted.inject({
        method: 'POST',
        url: '/login/renew',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.statusCode, res.body).toBe(200);
    } finally {
      await restarted.close();
    }
  });
});

describe('DELETE /v1/me/token (sign-out) and renewal', () => {
  it('signing out with the token just exchanged ends the new one too: the sign-in ends', async () => {
    const token = await signIn();
    clock += 58 * 60_000;
    const renewed = await renew(token);
    expect(renewed.statusCode).toBe(200);
    // A sign-out that read the session just before the renewal was stored sends the old token,
    // still answering for its minute.
    const out = await t.app.inject({
      method: 'DELETE',
      url: '/v1/me/token',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(out.statusCode).toBe(200);
    const next = renewed.json().token as string;
    expect((await sites(next)).statusCode).toBe(401);
    expect((await renew(next)).statusCode).toBe(401);
  });
});
