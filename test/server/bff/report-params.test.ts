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

/**
 * Each refusal carries a stable code and the values its sentence names (issue 38): the app says
 * the sentence in the person's language, and the English `message` stays as it was.
 */
describe('what a refusal names, apart from its English sentence', () => {
  type Refusal = {
    error: {
      code: string;
      message: string;
      fields: Array<{ path: string; message: string; problem?: string; values?: object }>;
    };
  };
  const refusal = async (query: string) => {
    const res = await stack.api(`/api/reports/abundance?${query}`, { cookie: manager });
    expect(res.status, res.text).toBe(422);
    return res.json<Refusal>().error;
  };

  it('names an unknown parameter', async () => {
    const error = await refusal('speceis=Cx%20tarsalis');
    expect(error.fields).toEqual([
      {
        path: 'speceis',
        message: 'Unknown parameter',
        problem: 'unknown_parameter',
        values: { parameter: 'speceis' },
      },
    ]);
  });

  it('gives the most names a parameter takes', async () => {
    const traps = Array.from({ length: 101 }, (_, i) => `trap=T${i}`).join('&');
    const error = await refusal(traps);
    expect(error.fields).toEqual([
      {
        path: 'trap',
        message: 'At most 100 values',
        problem: 'too_many_values',
        values: { max: 100 },
      },
    ]);
  });

  it('lists the species and traps nobody has, the first five and how many more', async () => {
    const species = ['Cx tarsalis', 'aa', 'ab', 'ac', 'ad', 'ae', 'af', 'ag']
      .map((s) => `species=${encodeURIComponent(s)}`)
      .join('&');
    const error = await refusal(`${species}&trap=CO2&trap=XYZ`);
    expect(error.fields).toEqual([
      {
        path: 'species',
        message: expect.stringMatching(/^No species is called "aa", .* and 2 more/),
        problem: 'unknown_names',
        values: { names: ['aa', 'ab', 'ac', 'ad', 'ae'], more: 2 },
      },
      {
        path: 'trap',
        message: expect.stringContaining('"XYZ"'),
        problem: 'unknown_names',
        values: { names: ['XYZ'], more: 0 },
      },
    ]);
  });

  it('names the smallest trap-night count a maximum below it', async () => {
    const error = await refusal('trapnight_min=3&trapnight_max=2');
    expect(error.fields).toEqual([
      {
        path: 'trapnight_max',
        message: 'Must be at least trapnight_min',
        problem: 'trapnights_order',
        values: { min: 3 },
      },
    ]);
  });

  it('gives the bound a number is past', async () => {
    expect((await refusal('year=2300')).fields).toEqual([
      { path: 'year', message: expect.any(String), problem: 'above_max', values: { max: 2200 } },
    ]);
    expect((await refusal('trapnight_min=0')).fields).toEqual([
      {
        path: 'trapnight_min',
        message: expect.any(String),
        problem: 'below_min',
        values: { min: 1 },
      },
    ]);
  });

  it('marks any other bad value as such', async () => {
    const error = await refusal('interval=Fortnight');
    expect(error.fields).toEqual([
      { path: 'interval', message: expect.any(String), problem: 'invalid_value' },
    ]);
  });
});
