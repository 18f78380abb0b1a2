import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBffStack, type BffStack } from './helpers/bff-stack';

/**
 * A technician whose account is disabled upstream (or whose token is revoked there) keeps a BFF
 * session until the BFF next hears the upstream refuse that token. Nothing of the agency's may
 * be served to that session in the meantime, not even from what the BFF read earlier for a
 * colleague (the reports' shared lists): every such answer is reauth_required.
 */

let stack: BffStack;
beforeAll(async () => {
  stack = await startBffStack();
});
afterAll(async () => {
  await stack?.close();
});

const disable = (username: string, active: boolean) =>
  stack.records.db.query('update app_user set active = $2 where username = $1', [username, active]);

describe('a session whose account was disabled upstream', () => {
  it('gets no report from the lists a colleague of the agency had the BFF read', async () => {
    const tech = await stack.signIn('demo-tech');
    const manager = await stack.signIn('demo-manager');
    const warm = await stack.api('/api/reports/abundance', { cookie: manager });
    expect(warm.status, warm.text).toBe(200);
    await disable('demo-tech', false);
    try {
      const report = await stack.api('/api/reports/abundance', { cookie: tech });
      expect(report.status, report.text).toBe(401);
      expect(report.json()).toMatchObject({ error: { code: 'reauth_required' } });
      // The refusal ends the session's token: the app asks for the password.
      const who = await stack.api('/api/v1/arthropod/collection', { cookie: tech });
      expect(who.json()).toMatchObject({ error: { code: 'reauth_required' } });
      // The colleague is not affected, and reads from the kept lists.
      const again = await stack.api('/api/reports/abundance', { cookie: manager });
      expect(again.status, again.text).toBe(200);
    } finally {
      await disable('demo-tech', true);
    }
  });

  it('gets no export either', async () => {
    const tech = await stack.signIn('demo-tech');
    await disable('demo-tech', false);
    try {
      const res = await stack.api('/api/export/sites.csv', { cookie: tech });
      expect(res.status, res.text).toBe(401);
    } finally {
      await disable('demo-tech', true);
    }
  });
});
