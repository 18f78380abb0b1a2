import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER_HEADER, ownerHeaderValue } from '../../../src/shared/schemas/auth';
import { startBffStack, type BffStack } from './helpers/bff-stack';

/**
 * A shared tablet, two tabs: demo-tech's app stays open in tab 1 while, in tab 2, demo-tech signed
 * out and neighbor-manager signed in. The browser has one session cookie: neighbor-manager's. When
 * demo-tech then taps Sign out in tab 1, that app names demo-tech (OWNER_HEADER, as on every
 * request): the BFF must not end neighbor-manager's session for it, nor clear their cookie.
 */
let stack: BffStack;
beforeAll(async () => {
  stack = await startBffStack();
});
afterAll(async () => {
  await stack?.close();
});

describe("DELETE /api/session from a tab of a user who is no longer the cookie's", () => {
  it("leaves the signed-in user's session and cookie alone", async () => {
    const tech = await stack.signIn('demo-tech');
    const techAgency = (await stack.api('/api/session', { cookie: tech })).json() as {
      agency: { id: number };
    };
    // Tab 2: neighbor-manager signs in in the same browser (demo-tech's session ends with it).
    const neighbor = await stack.signIn('neighbor-manager');

    // Tab 1, still demo-tech's app, signs out: the browser sends neighbor-manager's cookie.
    const out = await stack.api('/api/session', {
      method: 'DELETE',
      cookie: neighbor,
      headers: {
        [OWNER_HEADER]: ownerHeaderValue({
          agencyId: techAgency.agency.id,
          username: 'demo-tech',
        }),
      },
    });
    expect(out.status).toBe(204);
    expect(out.headers['set-cookie']).toBeUndefined();
    const still = await stack.api('/api/session', { cookie: neighbor });
    expect(still.status).toBe(200);
    expect(still.json()).toMatchObject({ user: { username: 'neighbor-manager' } });

    // neighbor-manager's own sign-out still signs them out.
    const own = await stack.api('/api/session', { method: 'DELETE', cookie: neighbor });
    expect(own.status).toBe(204);
    expect((await stack.api('/api/session', { cookie: neighbor })).status).toBe(401);
  });
});
