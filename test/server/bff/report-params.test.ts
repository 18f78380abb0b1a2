import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBffStack, type BffStack } from './helpers/bff-stack';

/** Report parameters vectorsurvR refuses are refused here too: 422 with the contract's body. */
let stack: BffStack;
let manager: string;

beforeAll(async () => {
  stack = await startBffStack();
  manager = await stack.signIn('demo-manager');
});
afterAll(async () => {
  await stack?.close();
});

describe('trap-night range', () => {
  it('refuses trapnight_min below 1, as getAbundance stops ("Invalid minimum trap night")', async () => {
    for (const name of ['abundance', 'abundance-anomaly', 'vector-index']) {
      const res = await stack.api(`/api/reports/${name}?trapnight_min=0`, { cookie: manager });
      expect(res.status, `${name}: ${res.text}`).toBe(422);
      expect(res.json()).toMatchObject({
        error: { code: 'validation_failed', fields: [{ path: 'trapnight_min' }] },
      });
    }
  });
});

describe('a query string that cannot be read', () => {
  it('is a 400 bad_request (contract §2), not a report filtered by a garbled name', async () => {
    for (const query of ['species=Cx%E0%A4%A', 'species=%', 'trap=CO2%2']) {
      const res = await stack.api(`/api/reports/abundance?year=2025&${query}`, {
        cookie: manager,
      });
      expect(res.status, `${query}: ${res.text}`).toBe(400);
      expect(res.json()).toMatchObject({ error: { code: 'bad_request' } });
    }
  });
});
