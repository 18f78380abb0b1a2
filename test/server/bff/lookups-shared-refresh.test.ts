import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOOKUP_LISTS } from '#shared/schemas/lookups';
import { startBffStack, type BffStack } from './helpers/bff-stack';

/**
 * The lookups document is kept per agency and refreshed once for everyone of the agency who asks
 * meanwhile, with the token of whoever asked first. When that token is refused upstream (the
 * account was disabled, the token revoked), only that session needs a new sign-in: a colleague
 * who asked at the same moment keeps a working session and gets the lists.
 */
let stack: BffStack;
beforeAll(async () => {
  // A cache time of 1 ms: every request refreshes (as when the cache time has just run out).
  stack = await startBffStack({ bff: { lookupTtlMs: 1 } });
});
afterAll(async () => {
  await stack?.close();
});

const disable = (username: string, active: boolean) =>
  stack.records.db.query('update app_user set active = $2 where username = $1', [username, active]);

const speciesFetches = () => stack.proxy.seen.filter((r) => r.path === '/v1/species').length;

/** Resolves once the upstream has been asked for species once more than `before` times. */
async function refreshStarted(before: number) {
  for (let i = 0; i < 200 && speciesFetches() <= before; i++) {
    await new Promise((r) => setTimeout(r, 10));
  }
  expect(speciesFetches()).toBeGreaterThan(before);
}

/** Every lookup list's next answer comes late, so a refresh stays under way for a while. */
function slowLookups(ms: number) {
  for (const { path } of Object.values(LOOKUP_LISTS))
    void stack.proxy.arm('GET', path, 'delay', ms);
}

describe('a refresh of the lookups started by a session the upstream refuses', () => {
  it('does not sign out, or refuse the lists to, a colleague who asked meanwhile', async () => {
    const tech = await stack.signIn('demo-tech');
    const manager = await stack.signIn('demo-manager');
    const warm = await stack.api('/api/lookups', { cookie: manager });
    expect(warm.status, warm.text).toBe(200);
    await disable('demo-tech', false);
    try {
      slowLookups(600);
      const before = speciesFetches();
      const techAnswer = stack.api('/api/lookups', { cookie: tech });
      // The technician's refresh is under way (its answers held back) when the colleague asks.
      await refreshStarted(before);
      const managerAnswer = await stack.api('/api/lookups', { cookie: manager });
      const techRes = await techAnswer;
      expect(techRes.status, techRes.text).toBe(401);
      expect(techRes.json()).toMatchObject({ error: { code: 'reauth_required' } });
      expect(managerAnswer.status, managerAnswer.text).toBe(200);
      expect(managerAnswer.json<{ species: unknown[] }>().species.length).toBeGreaterThan(0);
      // The manager's session still works: no sign-in sheet for someone whose token is fine.
      const after = await stack.api('/api/v1/arthropod/collection', { cookie: manager });
      expect(after.status, after.text).toBe(200);
    } finally {
      await disable('demo-tech', true);
    }
  });

  it("does not fail a colleague's export started meanwhile", async () => {
    const tech = await stack.signIn('demo-tech');
    const manager = await stack.signIn('demo-manager');
    await disable('demo-tech', false);
    try {
      slowLookups(600);
      const before = speciesFetches();
      const techAnswer = stack.api('/api/lookups', { cookie: tech });
      // The technician's refresh is under way (its answers held back) when the colleague asks.
      await refreshStarted(before);
      const exported = await stack.api('/api/export/sites.csv', {
        cookie: manager,
        headers: { accept: '*/*' },
      });
      expect((await techAnswer).status).toBe(401);
      expect(exported.status, exported.text).toBe(200);
      expect(exported.text).toMatch(/^site_id,code,name,/);
    } finally {
      await disable('demo-tech', true);
    }
  });
});
