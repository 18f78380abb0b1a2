import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestRecords, type TestRecords } from '../helpers/records-app';
import { lockRace, type LockRace } from './helpers/lock-race';

/**
 * A manager resets a person's password, or deactivates them, at the moment their BFF renews
 * their token (POST /login/renew), on PostgreSQL (READ COMMITTED, several connections). The
 * reset revokes the person's login tokens; the token the renewal makes must not escape it, or
 * the tablet goes on working with the old password's sign-in (after a reset) or wakes up again
 * when the person is reactivated.
 */
const adminUrl = process.env.TRAPLINE_TEST_DATABASE_URL;

describe.runIf(adminUrl)('a renewal racing a password reset or a deactivation', () => {
  let t: TestRecords;
  let locks: LockRace;
  let manager: string;
  let serial = 0;

  beforeAll(async () => {
    t = await buildTestRecords();
    manager = await t.login('demo-manager');
    locks = await lockRace(t, adminUrl as string);
  }, 120_000);
  afterAll(async () => {
    await locks?.close();
    await t?.close();
  });

  /** A new person who chose their own password, and a token of theirs. */
  async function signedInPerson(): Promise<{ id: number; token: string }> {
    serial += 1;
    const username = `race-tech-${serial}`;
    const made = await t.app.inject({
      method: 'POST',
      url: '/v1/user',
      headers: t.auth(manager),
      payload: { username, full_name: `Race Tech ${serial}`, role: 'user' },
    });
    expect(made.statusCode, made.body).toBe(201);
    const { id, temporary_password: temporary } = made.json() as {
      id: number;
      temporary_password: string;
    };
    const first = await t.app.inject({
      method: 'POST',
      url: '/login',
      payload: { username, password: temporary },
    });
    const token = first.json().token as string;
    const chosen = await t.app.inject({
      method: 'POST',
      url: '/v1/me/password',
      headers: t.auth(token),
      payload: { current_password: temporary, new_password: 'a-password-of-their-own' },
    });
    expect(chosen.statusCode, chosen.body).toBe(200);
    return { id, token };
  }

  const renew = (token: string) =>
    t.app.inject({ method: 'POST', url: '/login/renew', headers: t.auth(token) });
  const me = (token: string) =>
    t.app.inject({ method: 'GET', url: '/v1/me', headers: t.auth(token) });

  // The blocker holds the token table so the renewal waits after it has read and locked the
  // token it exchanges; the manager's change then starts before the renewal commits.
  const HOLD_TOKENS = 'lock table api_token in share mode';

  it('a password reset ends the token the renewal was making at that moment', async () => {
    const person = await signedInPerson();
    const [renewed, reset] = await locks.race(
      HOLD_TOKENS,
      () => renew(person.token),
      () =>
        t.app.inject({
          method: 'POST',
          url: `/v1/user/${person.id}/password`,
          headers: t.auth(manager),
        }),
    );
    expect(reset.statusCode, reset.body).toBe(200);
    // The renewal got there first (the reset waits for it), and its token ends with the reset.
    expect(renewed.statusCode, renewed.body).toBe(200);
    const after = await me(renewed.json().token as string);
    expect(after.statusCode, after.body).toBe(401);
    expect((await me(person.token)).statusCode).toBe(401);
  });

  it('a deactivation ends it too, and reactivating the person does not bring it back', async () => {
    const person = await signedInPerson();
    const setActive = (active: boolean) =>
      t.app.inject({
        method: 'PUT',
        url: `/v1/user/${person.id}`,
        headers: t.auth(manager),
        payload: { active },
      });
    const [renewed, deactivated] = await locks.race(
      HOLD_TOKENS,
      () => renew(person.token),
      () => setActive(false),
    );
    expect(deactivated.statusCode, deactivated.body).toBe(200);
    expect((await setActive(true)).statusCode).toBe(200);
    expect(renewed.statusCode, renewed.body).toBe(200);
    const after = await me(renewed.json().token as string);
    expect(after.statusCode, after.body).toBe(401);
    expect((await renew(renewed.json().token as string)).statusCode).toBe(401);
    expect((await me(person.token)).statusCode).toBe(401);
  });
});
