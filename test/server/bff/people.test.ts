import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBffStack, type BffStack } from './helpers/bff-stack';
import { cookieFrom } from './helpers/http';

/**
 * The Office's routes through the BFF (contract §10, §7) and the "choose your password" step of a
 * first sign-in, over real HTTP: browser → BFF → records service on one test database.
 */
let stack: BffStack;
let clock = Date.parse('2026-07-14T15:00:00.000Z');
let manager: string;
let serial = 0;

beforeAll(async () => {
  stack = await startBffStack({
    records: {
      now: () => new Date(clock),
      loginLimits: { failuresPerUsername: 1000, attemptsPerAddress: 10_000 },
    },
    bff: {
      now: () => new Date(clock),
      loginLimits: { failuresPerUsername: 1000, attemptsPerAddress: 10_000 },
    },
  });
  manager = await stack.signIn('demo-manager');
});
afterAll(() => stack?.close());

async function addTechnician() {
  serial += 1;
  const username = `new-technician-${serial}`;
  const res = await stack.api('/api/v1/user', {
    method: 'POST',
    cookie: manager,
    headers: { 'idempotency-key': crypto.randomUUID() },
    body: { username, full_name: `New Tech ${serial}`, role: 'user' },
  });
  expect(res.status, res.text).toBe(201);
  const body = res.json<{ id: number; temporary_password: string }>();
  return { id: body.id, username, temporary: body.temporary_password };
}

const signIn = (username: string, password: string) =>
  stack.api('/api/session', { method: 'POST', body: { username, password } });
const choose = (username: string, password: string, new_password: string) =>
  stack.api('/api/session/password', {
    method: 'POST',
    body: { username, password, new_password },
  });

describe('the Office routes through the BFF', () => {
  it('lists the agency’s people for a manager; a technician gets 403', async () => {
    const list = await stack.api('/api/v1/user?sort=username', { cookie: manager });
    expect(list.status, list.text).toBe(200);
    expect(list.json<{ rows: { username: string }[] }>().rows.map((r) => r.username)).toContain(
      'demo-tech',
    );
    const tech = await stack.signIn('demo-tech');
    expect((await stack.api('/api/v1/user', { cookie: tech })).status).toBe(403);
  });

  it('never keeps a temporary password or an agency token in a journal, even with a key', async () => {
    const person = await addTechnician();
    const reset = await stack.api(`/api/v1/user/${person.id}/password`, {
      method: 'POST',
      cookie: manager,
      headers: { 'idempotency-key': crypto.randomUUID() },
      body: {},
    });
    expect(reset.status, reset.text).toBe(200);
    const issued = await stack.api('/api/v1/agency/token', {
      method: 'POST',
      cookie: manager,
      headers: { 'idempotency-key': crypto.randomUUID() },
      body: {},
    });
    expect(issued.status, issued.text).toBe(201);
    const secrets = [
      person.temporary,
      reset.json<{ temporary_password: string }>().temporary_password,
      issued.json<{ token: string }>().token,
    ];
    const db = stack.records.db;
    const kept = JSON.stringify([
      (await db.query('select * from bff_idempotency')).rows,
      (await db.query('select * from idempotency_key')).rows,
    ]);
    for (const secret of secrets) expect(kept).not.toContain(secret);
  });

  it('lists, creates and revokes agency tokens; the list never holds a token', async () => {
    const issued = await stack.api('/api/v1/agency/token', {
      method: 'POST',
      cookie: manager,
      body: {},
    });
    const { id, token } = issued.json<{ id: number; token: string }>();
    const list = await stack.api('/api/v1/agency/token', { cookie: manager });
    expect(list.status).toBe(200);
    expect(list.json<{ rows: { id: number }[] }>().rows.map((r) => r.id)).toContain(id);
    expect(list.text).not.toContain(token);
    const revoked = await stack.api(`/api/v1/agency/token/${id}`, {
      method: 'DELETE',
      cookie: manager,
    });
    expect(revoked.status, revoked.text).toBe(200);
    const after = await stack.api('/api/v1/agency/token', { cookie: manager });
    expect(after.json<{ rows: { id: number }[] }>().rows.map((r) => r.id)).not.toContain(id);
  });
});

describe('the first sign-in with a temporary password', () => {
  it('asks for a new password and starts no session until it is chosen', async () => {
    const person = await addTechnician();
    const first = await signIn(person.username, person.temporary);
    expect(first.status, first.text).toBe(403);
    expect(first.json()).toMatchObject({ error: { code: 'password_change_required' } });
    expect(cookieFrom(first)).toBeFalsy();

    const weak = await choose(person.username, person.temporary, 'short');
    expect(weak.status).toBe(422);
    expect(weak.json()).toMatchObject({
      error: { fields: [{ path: 'new_password', message: 'Use at least 12 characters' }] },
    });
    const named = await choose(person.username, person.temporary, person.username);
    expect(named.json()).toMatchObject({
      error: {
        fields: [{ path: 'new_password', message: 'Choose something other than your username' }],
      },
    });
    const wrong = await choose(person.username, 'not-the-temporary', 'a-fine-new-password');
    expect(wrong.status).toBe(401);
    expect(wrong.json()).toMatchObject({ error: { code: 'invalid_credentials' } });

    const chosen = await choose(person.username, person.temporary, 'a-fine-new-password');
    expect(chosen.status, chosen.text).toBe(200);
    expect(chosen.json()).toMatchObject({
      user: { username: person.username, role: 'technician' },
      agency: { id: 1 },
    });
    const cookie = cookieFrom(chosen)!;
    expect(cookie).toBeTruthy();
    const sites = await stack.api('/api/v1/site', { cookie });
    expect(sites.status, sites.text).toBe(200);
    // The temporary password is spent; the chosen one signs in directly.
    expect((await signIn(person.username, person.temporary)).status).toBe(401);
    expect((await signIn(person.username, 'a-fine-new-password')).status).toBe(200);
  });

  it('says when the temporary password has expired (7 days)', async () => {
    const person = await addTechnician();
    const saved = clock;
    clock += 8 * 24 * 3600_000;
    try {
      for (const res of [
        await signIn(person.username, person.temporary),
        await choose(person.username, person.temporary, 'a-fine-new-password'),
      ]) {
        expect(res.status).toBe(401);
        expect(res.json()).toMatchObject({ error: { code: 'temporary_password_expired' } });
      }
    } finally {
      clock = saved;
    }
  });
});

describe('deactivation', () => {
  it('ends the person’s BFF session at their next request: 401 reauth_required', async () => {
    const person = await addTechnician();
    const cookie = cookieFrom(
      await choose(person.username, person.temporary, 'tablet-password-1'),
    )!;
    expect((await stack.api('/api/v1/site', { cookie })).status).toBe(200);

    const off = await stack.api(`/api/v1/user/${person.id}`, {
      method: 'PUT',
      cookie: manager,
      body: { active: false },
    });
    expect(off.status, off.text).toBe(200);

    // Whatever the next request is, even one the BFF answers from what it holds.
    for (const path of ['/api/session', '/api/lookups', '/api/v1/arthropod/collection']) {
      const next = await stack.api(path, { cookie });
      expect(next.status, path).toBe(401);
      expect(next.json()).toMatchObject({ error: { code: 'reauth_required' } });
    }
    const again = await signIn(person.username, 'tablet-password-1');
    expect(again.status).toBe(401);
    expect(again.json()).toMatchObject({ error: { code: 'invalid_credentials' } });
  });

  it('a password reset ends the person’s BFF sessions at once too', async () => {
    const person = await addTechnician();
    const cookie = cookieFrom(
      await choose(person.username, person.temporary, 'tablet-password-2'),
    )!;
    const warm = await stack.api('/api/lookups', { cookie });
    expect(warm.status, warm.text).toBe(200);
    const reset = await stack.api(`/api/v1/user/${person.id}/password`, {
      method: 'POST',
      cookie: manager,
      body: {},
    });
    expect(reset.status, reset.text).toBe(200);
    const next = await stack.api('/api/lookups', { cookie });
    expect(next.status).toBe(401);
    expect(next.json()).toMatchObject({ error: { code: 'reauth_required' } });
    // The manager's own session goes on.
    expect((await stack.api('/api/lookups', { cookie: manager })).status).toBe(200);
  });

  it('a manager cannot deactivate themselves through the BFF either (422 own_account)', async () => {
    const res = await stack.api('/api/v1/user/1', {
      method: 'PUT',
      cookie: manager,
      body: { active: false },
    });
    expect(res.status).toBe(422);
    expect(res.json()).toMatchObject({
      error: { code: 'own_account', fields: [{ path: 'active' }] },
    });
  });
});
