import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestRecords, type TestRecords } from '../helpers/records-app';

/**
 * DELETE /v1/me/token: a sign-out revokes the login token it was made with (the BFF calls it
 * when a user signs out), so a token copied before the sign-out is worthless after it.
 */

let t: TestRecords;
beforeAll(async () => {
  t = await buildTestRecords();
});
afterAll(() => t.close());

const me = (token: string) =>
  t.app.inject({ method: 'GET', url: '/v1/me', headers: t.auth(token) });
const revoke = (headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'DELETE', url: '/v1/me/token', headers });

describe('DELETE /v1/me/token', () => {
  it('revokes the login token it is sent with: the token then gets 401 unauthenticated', async () => {
    const token = await t.login('demo-tech');
    expect((await me(token)).statusCode).toBe(200);
    const res = await revoke(t.auth(token));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ revoked: true });
    const after = await me(token);
    expect(after.statusCode).toBe(401);
    expect(after.json()).toMatchObject({ error: { code: 'unauthenticated' } });
    // Sending it again is refused like any other use of a revoked token.
    expect((await revoke(t.auth(token))).statusCode).toBe(401);
  });

  it("leaves the same user's other sign-ins (another tablet) working", async () => {
    const first = await t.login('demo-tech');
    const second = await t.login('demo-tech');
    expect((await revoke(t.auth(first))).statusCode).toBe(200);
    expect((await me(first)).statusCode).toBe(401);
    expect((await me(second)).statusCode).toBe(200);
  });

  it('refuses an agency token (403): those are revoked by id by a manager', async () => {
    const manager = await t.login('demo-manager');
    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/agency/token',
      headers: t.auth(manager),
    });
    const { token } = created.json<{ token: string }>();
    const res = await revoke(t.auth(token));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: { code: 'forbidden' } });
    expect((await me(token)).statusCode).toBe(200);
  });

  it('answers 401 without a token', async () => {
    const res = await revoke();
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ error: { code: 'unauthenticated' } });
  });

  it('is listed in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(doc.paths['/v1/me/token']?.delete).toBeDefined();
  });
});
