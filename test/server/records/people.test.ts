import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestRecords, TEST_PASSWORD, type TestRecords } from '../helpers/records-app';
import { userRecord } from '#shared/schemas/people';

/**
 * The agency's people (contract §10) on the records service, over real HTTP injection on the
 * test database (PGlite, or PostgreSQL with TRAPLINE_TEST_DATABASE_URL).
 */
let t: TestRecords;
let clock = Date.parse('2026-07-14T15:00:00.000Z');
let manager: string;
let tech: string;
let neighbor: string;

beforeAll(async () => {
  t = await buildTestRecords({
    now: () => new Date(clock),
    loginLimits: { failuresPerUsername: 1000, attemptsPerAddress: 10_000 },
  });
  manager = await t.login('demo-manager');
  tech = await t.login('demo-tech');
  neighbor = await t.login('neighbor-manager');
});
afterAll(() => t.close());

type Opts = { token?: string; payload?: unknown };
const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, o: Opts = {}) =>
  t.app.inject({
    method,
    url,
    headers: o.token ? t.auth(o.token) : {},
    ...(o.payload !== undefined ? { payload: o.payload as object } : {}),
  });
const login = (username: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/login', payload: { username, password } });

let serial = 0;
async function addPerson(role: 'user' | 'manager' = 'user', token = manager) {
  serial += 1;
  const username = `field-tech-${serial}`;
  const res = await call('POST', '/v1/user', {
    token,
    payload: { username, full_name: `Field Tech ${serial}`, role },
  });
  expect(res.statusCode, res.body).toBe(201);
  const body = res.json();
  return { id: body.id as number, username, temporary: body.temporary_password as string };
}

/** Signs in with a temporary password and chooses `password`; the token then works fully. */
async function choosePassword(username: string, temporary: string, password: string) {
  const first = await login(username, temporary);
  expect(first.statusCode, first.body).toBe(200);
  const token = first.json().token as string;
  const changed = await call('POST', '/v1/me/password', {
    token,
    payload: { current_password: temporary, new_password: password },
  });
  expect(changed.statusCode, changed.body).toBe(200);
  return token;
}

describe('GET /v1/user', () => {
  it('lists the agency’s people with the contract’s fields and never a password', async () => {
    const res = await call('GET', '/v1/user', { token: manager });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    const usernames = body.rows.map((r: { username: string }) => r.username);
    expect(usernames).toEqual(expect.arrayContaining(['demo-manager', 'demo-tech']));
    expect(usernames).not.toContain('neighbor-manager');
    for (const row of body.rows) {
      expect(Object.keys(row)).toEqual([
        'id',
        'username',
        'full_name',
        'role',
        'active',
        'add_date',
        'updated',
        'last_login',
      ]);
      userRecord.parse(row);
    }
    expect(body.rows.find((r: { username: string }) => r.username === 'demo-tech').role).toBe(
      'user',
    );
    expect(res.body).not.toMatch(/scrypt|password/);
    // Signing in is recorded.
    const me = body.rows.find((r: { username: string }) => r.username === 'demo-manager');
    expect(me.last_login).toBe(new Date(clock).toISOString());
  });

  it('takes the shared list parameters: query, sort, fields[], search, paging', async () => {
    const users = await call('GET', '/v1/user?query[role]=user&fields[]=username', {
      token: manager,
    });
    expect(users.statusCode, users.body).toBe(200);
    expect(users.json().rows.every((r: object) => Object.keys(r).join() === 'id,username')).toBe(
      true,
    );
    expect(users.json().rows.map((r: { username: string }) => r.username)).toContain('demo-tech');
    expect(users.json().rows.map((r: { username: string }) => r.username)).not.toContain(
      'demo-manager',
    );
    const sorted = await call('GET', '/v1/user?sort=-username&pageSize=1', { token: manager });
    expect(sorted.json().rows).toHaveLength(1);
    expect(sorted.json().count).toBeGreaterThanOrEqual(2);
    const search = await call('GET', '/v1/user?search=DEMO-T', { token: manager });
    expect(search.json().rows.map((r: { username: string }) => r.username)).toEqual(['demo-tech']);
    const bad = await call('GET', '/v1/user?query[password_hash]=x', { token: manager });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error.code).toBe('validation_failed');
  });

  it('is for managers: a technician gets 403, no token 401; an agency token may', async () => {
    expect((await call('GET', '/v1/user', { token: tech })).statusCode).toBe(403);
    expect((await call('GET', '/v1/user')).statusCode).toBe(401);
    const issued = await call('POST', '/v1/agency/token', { token: manager });
    const res = await call('GET', '/v1/user', { token: issued.json().token });
    expect(res.statusCode).toBe(200);
  });
});

describe('POST /v1/user', () => {
  it('adds a person with a temporary password shown once', async () => {
    const res = await call('POST', '/v1/user', {
      token: manager,
      payload: { username: 'Maria.Lopez', full_name: '  Maria López ', role: 'user' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      username: 'Maria.Lopez',
      full_name: 'Maria López',
      role: 'user',
      active: true,
      last_login: null,
    });
    expect(body.temporary_password).toMatch(/^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/);
    const listed = await call('GET', '/v1/user?query[username]=Maria.Lopez', { token: manager });
    expect(listed.json().rows).toHaveLength(1);
    expect(listed.body).not.toContain(body.temporary_password);
  });

  it('refuses a username already used, ignoring case, in any agency (409 username_taken)', async () => {
    for (const username of ['maria.lopez', 'DEMO-TECH', 'Neighbor-Manager']) {
      const res = await call('POST', '/v1/user', {
        token: manager,
        payload: { username, full_name: 'Someone', role: 'user' },
      });
      expect(res.statusCode, username).toBe(409);
      expect(res.json().error.code).toBe('username_taken');
    }
  });

  it('adds one account when two managers add the same name at once', async () => {
    const payload = { username: 'race-name', full_name: 'Race', role: 'user' };
    const answers = await Promise.all([
      call('POST', '/v1/user', { token: manager, payload }),
      call('POST', '/v1/user', { token: manager, payload: { ...payload, username: 'RACE-NAME' } }),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409]);
  });

  it('lists every failing field (422) and refuses unknown fields', async () => {
    const res = await call('POST', '/v1/user', {
      token: manager,
      payload: { username: 'a b', full_name: '', role: 'admin', password: 'x' },
    });
    expect(res.statusCode).toBe(422);
    const paths = res.json().error.fields.map((f: { path: string }) => f.path);
    expect(paths).toEqual(expect.arrayContaining(['username', 'full_name', 'role', '(body)']));
  });

  it('answers a technician 403 before reading the body', async () => {
    const res = await call('POST', '/v1/user', { token: tech, payload: { nonsense: 1 } });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('forbidden');
  });
});

describe('the first sign-in with a temporary password', () => {
  it('must choose a new password before anything else works', async () => {
    const person = await addPerson();
    const first = await login(person.username, person.temporary);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().password_change_required).toBe(true);
    const token = first.json().token;

    const blocked = await call('GET', '/v1/site', { token });
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json().error.code).toBe('password_change_required');
    expect((await call('GET', '/v1/species', { token })).statusCode).toBe(403);
    expect((await call('GET', '/v1/me', { token })).statusCode).toBe(200);

    const weak = await call('POST', '/v1/me/password', {
      token,
      payload: { current_password: 'wrong', new_password: 'short' },
    });
    expect(weak.statusCode).toBe(422);
    expect(weak.json().error.fields).toEqual([
      { path: 'current_password', message: 'This is not your current password' },
      { path: 'new_password', message: 'Use at least 12 characters' },
    ]);
    const named = await call('POST', '/v1/me/password', {
      token,
      payload: { current_password: person.temporary, new_password: person.username.toUpperCase() },
    });
    expect(named.statusCode).toBe(422);
    expect(named.json().error.fields).toEqual([
      { path: 'new_password', message: 'Choose something other than your username' },
    ]);
    const same = await call('POST', '/v1/me/password', {
      token,
      payload: { current_password: person.temporary, new_password: person.temporary },
    });
    expect(same.statusCode).toBe(422);

    const ok = await call('POST', '/v1/me/password', {
      token,
      payload: { current_password: person.temporary, new_password: 'mosquito-season-2026' },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await call('GET', '/v1/site', { token })).statusCode).toBe(200);
    expect((await login(person.username, person.temporary)).statusCode).toBe(401);
    const again = await login(person.username, 'mosquito-season-2026');
    expect(again.statusCode).toBe(200);
    expect(again.json()).not.toHaveProperty('password_change_required');
  });

  it('a temporary password stops working after 7 days', async () => {
    const person = await addPerson();
    const saved = clock;
    try {
      clock += 7 * 24 * 3600_000 - 1000;
      expect((await login(person.username, person.temporary)).statusCode).toBe(200);
      clock += 1000;
      const expired = await login(person.username, person.temporary);
      expect(expired.statusCode).toBe(401);
      expect(expired.json().error.code).toBe('temporary_password_expired');
      // A wrong password is still just wrong, and says nothing about the account.
      const wrong = await login(person.username, 'not-the-password');
      expect(wrong.json().error.code).toBe('invalid_credentials');
    } finally {
      clock = saved;
    }
  });

  it('an agency token cannot change a password (403)', async () => {
    const issued = await call('POST', '/v1/agency/token', { token: manager });
    const res = await call('POST', '/v1/me/password', {
      token: issued.json().token,
      payload: { current_password: 'x', new_password: 'long-enough-password' },
    });
    expect(res.statusCode).toBe(403);
  });
});

describe('PUT /v1/user/{id}', () => {
  it('changes the name and role; another agency’s user is a 404', async () => {
    const person = await addPerson();
    const res = await call('PUT', `/v1/user/${person.id}`, {
      token: manager,
      payload: { full_name: 'Renamed Person', role: 'manager' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      full_name: 'Renamed Person',
      role: 'manager',
      active: true,
    });
    const other = await call('PUT', `/v1/user/${person.id}`, {
      token: neighbor,
      payload: { active: false },
    });
    expect(other.statusCode).toBe(404);
    expect(
      (await call('PUT', '/v1/user/999999', { token: manager, payload: { active: true } }))
        .statusCode,
    ).toBe(404);
    const empty = await call('PUT', `/v1/user/${person.id}`, { token: manager, payload: {} });
    expect(empty.statusCode).toBe(422);
  });

  it('deactivation ends the person’s sign-ins at once; reactivation brings none back', async () => {
    const person = await addPerson();
    const token = await choosePassword(person.username, person.temporary, 'trap-night-counts');
    expect((await call('GET', '/v1/site', { token })).statusCode).toBe(200);

    const off = await call('PUT', `/v1/user/${person.id}`, {
      token: manager,
      payload: { active: false },
    });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().active).toBe(false);
    const next = await call('GET', '/v1/site', { token });
    expect(next.statusCode).toBe(401);
    expect((await login(person.username, 'trap-night-counts')).statusCode).toBe(401);

    const on = await call('PUT', `/v1/user/${person.id}`, {
      token: manager,
      payload: { active: true },
    });
    expect(on.json().active).toBe(true);
    expect((await call('GET', '/v1/site', { token })).statusCode).toBe(401);
    expect((await login(person.username, 'trap-night-counts')).statusCode).toBe(200);
  });

  it('a manager cannot deactivate or demote themselves (422 own_account)', async () => {
    for (const payload of [{ active: false }, { role: 'user' }]) {
      const res = await call('PUT', '/v1/user/1', { token: manager, payload });
      expect(res.statusCode).toBe(422);
      expect(res.json().error.code).toBe('own_account');
      expect(res.json().error.fields).toHaveLength(1);
    }
    const rename = await call('PUT', '/v1/user/1', {
      token: manager,
      payload: { full_name: 'Dana Whitfield' },
    });
    expect(rename.statusCode).toBe(200);
  });

  it('the agency keeps one active manager (422 last_manager)', async () => {
    // Agency 2 has one manager; its agency token acts as no person, so only this rule stops it.
    const issued = await call('POST', '/v1/agency/token', { token: neighbor });
    const agencyToken = issued.json().token;
    const res = await call('PUT', '/v1/user/3', { token: agencyToken, payload: { role: 'user' } });
    expect(res.statusCode).toBe(422);
    expect(res.json().error.code).toBe('last_manager');
  });

  it('two managers demoting each other at once leave the agency one manager', async () => {
    const a = await addPerson('manager', neighbor);
    const b = await addPerson('manager', neighbor);
    const ta = await choosePassword(a.username, a.temporary, 'manager-a-password');
    const tb = await choosePassword(b.username, b.temporary, 'manager-b-password');
    // Leave a and b as the agency's only managers.
    const issued = await call('POST', '/v1/agency/token', { token: neighbor });
    const demoteNeighbor = await call('PUT', '/v1/user/3', {
      token: issued.json().token,
      payload: { role: 'user' },
    });
    expect(demoteNeighbor.statusCode, demoteNeighbor.body).toBe(200);
    try {
      const answers = await Promise.all([
        call('PUT', `/v1/user/${b.id}`, { token: ta, payload: { role: 'user' } }),
        call('PUT', `/v1/user/${a.id}`, { token: tb, payload: { role: 'user' } }),
      ]);
      // The loser is refused either way: 422 last_manager when both were read as managers, 403
      // when its own demotion was committed before its request was authenticated.
      const statuses = answers.map((r) => r.statusCode).sort();
      expect(statuses[0]).toBe(200);
      expect([403, 422]).toContain(statuses[1]);
      const managers = await t.db.query(
        "select id from app_user where agency = 2 and role = 'manager' and active",
      );
      expect(managers.rows).toHaveLength(1);
    } finally {
      await t.db.query("update app_user set role = 'manager' where id = 3");
    }
  });
});

describe('POST /v1/user/{id}/password', () => {
  it('resets to a temporary password and ends the person’s sign-ins', async () => {
    const person = await addPerson();
    const token = await choosePassword(person.username, person.temporary, 'forgotten-password');
    const res = await call('POST', `/v1/user/${person.id}/password`, { token: manager });
    expect(res.statusCode, res.body).toBe(200);
    const temporary = res.json().temporary_password;
    expect(temporary).toMatch(/^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/);
    expect((await call('GET', '/v1/site', { token })).statusCode).toBe(401);
    expect((await login(person.username, 'forgotten-password')).statusCode).toBe(401);
    const first = await login(person.username, temporary);
    expect(first.json().password_change_required).toBe(true);
  });

  it('is a 404 for another agency’s user and a 403 for a technician', async () => {
    expect((await call('POST', '/v1/user/1/password', { token: neighbor })).statusCode).toBe(404);
    expect((await call('POST', '/v1/user/1/password', { token: tech })).statusCode).toBe(403);
  });
});

describe('POST /v1/me/password for any signed-in person', () => {
  it('a technician changes their own password; their other sign-ins end', async () => {
    const person = await addPerson();
    const token = await choosePassword(person.username, person.temporary, 'first-own-password');
    const other = (await login(person.username, 'first-own-password')).json().token;
    const res = await call('POST', '/v1/me/password', {
      token,
      payload: { current_password: 'first-own-password', new_password: 'second-own-password' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await call('GET', '/v1/site', { token })).statusCode).toBe(200);
    expect((await call('GET', '/v1/site', { token: other })).statusCode).toBe(401);
    // The seeded accounts are untouched by these tests.
    expect((await login('demo-tech', TEST_PASSWORD)).statusCode).toBe(200);
  });
});

describe('agency tokens', () => {
  it('lists live tokens with who made them, never a token or its hash; a revoked one leaves', async () => {
    const issued = await call('POST', '/v1/agency/token', { token: manager });
    const { id, token } = issued.json();
    const list = await call('GET', '/v1/agency/token', { token: manager });
    expect(list.statusCode, list.body).toBe(200);
    const row = list.json().rows.find((r: { id: number }) => r.id === id);
    expect(row).toEqual({
      id,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      created_by: { id: 1, username: 'demo-manager', full_name: 'Dana Whitfield' },
    });
    expect(list.body).not.toContain(token);
    const hashes = await t.db.query<{ token_hash: string }>('select token_hash from api_token');
    for (const h of hashes.rows) expect(list.body).not.toContain(h.token_hash);
    expect((await call('DELETE', `/v1/agency/token/${id}`, { token: manager })).statusCode).toBe(
      200,
    );
    const after = await call('GET', '/v1/agency/token', { token: manager });
    expect(after.json().rows.map((r: { id: number }) => r.id)).not.toContain(id);
    const theirs = await call('GET', '/v1/agency/token', { token: neighbor });
    expect(theirs.json().rows.map((r: { id: number }) => r.id)).not.toContain(id);
    expect((await call('GET', '/v1/agency/token', { token: tech })).statusCode).toBe(403);
  });
});

it('documents the people routes in the OpenAPI document', async () => {
  const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
  expect(Object.keys(doc.paths)).toEqual(
    expect.arrayContaining([
      '/v1/user',
      '/v1/user/{id}',
      '/v1/user/{id}/password',
      '/v1/me/password',
      '/v1/agency/token',
    ]),
  );
  expect(Object.keys(doc.paths['/v1/user']).sort()).toEqual(['get', 'post']);
  expect(Object.keys(doc.paths['/v1/agency/token']).sort()).toEqual(['get', 'post']);
});
