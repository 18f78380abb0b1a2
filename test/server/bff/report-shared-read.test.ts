import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBffStack, type BffStack } from './helpers/bff-stack';

/**
 * Two people of one agency open reports at the same moment: the BFF reads the agency's lists
 * once, with the first one's upstream token. If that token has expired, only its owner is asked
 * to sign in again; the other still gets the report, read with their own token.
 */
let stack: BffStack;

beforeAll(async () => {
  stack = await startBffStack();
});
afterAll(async () => {
  await stack?.close();
});

describe('a report read shared by two sessions of one agency', () => {
  it("does not sign the second person out when the first one's upstream token has expired", async () => {
    const tech = await stack.signIn('demo-tech');
    const manager = await stack.signIn('demo-manager');
    // The technician's upstream sign-in ends (its hour is up) while the BFF session still shows it.
    await stack.records.db.query(
      `update api_token set expires_at = now() - interval '1 second'
        where user_id = (select id from app_user where username = 'demo-tech')`,
    );
    // The upstream's refusals of the technician's reads are answered late, so the manager's
    // request arrives while that read is still running.
    const refused = Promise.all([
      stack.proxy.arm('GET', '/v1/arthropod/collection', 'delay', 300),
      stack.proxy.arm('GET', '/v1/arthropod/pool', 'delay', 300),
    ]);
    const techReport = stack.api('/api/reports/abundance?year=2025', { cookie: tech });
    await refused;
    const managerReport = await stack.api('/api/reports/abundance?year=2025', {
      cookie: manager,
    });
    expect((await techReport).status).toBe(401);
    expect(managerReport.status, managerReport.text).toBe(200);
    expect(managerReport.json()).toEqual({ rows: [], count: 0 });
    // …and is still signed in.
    expect((await stack.api('/api/session', { cookie: manager })).status).toBe(200);
  });
});
