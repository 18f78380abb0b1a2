import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestRecords, type TestRecords } from '../../helpers/records-app';
import {
  SEX_ID,
  SPECIES_ID,
  api,
  errorOf,
  makeCollection,
  tableCounts,
  type Api,
} from '../helpers/arthropod-fixtures';

// Issue 35 (6): "Ct −5 and a test date 7 months ahead on a Confirmed WNV result, both synced".
const TESTS = '/v1/arthropod/pool/test';
const METHOD = { rtPcr: 1, ramp: 2 };
const CONFIRMED = 1;
const WNV = 1;
const LAB = 3;

// The service's clock: 1 August 2026, 20:00 UTC (already 2 August east of UTC+4).
const NOW = new Date('2026-08-01T20:00:00.000Z');

let t: TestRecords;
let http: Api;
let tech: string;

beforeAll(async () => {
  t = await buildTestRecords({ now: () => NOW });
  http = api(t);
  tech = await t.login('demo-tech');
});
afterAll(async () => t?.close());

async function makePool(): Promise<number> {
  const c = await http.post(
    '/v1/arthropod/collection',
    tech,
    makeCollection({
      collection_date: '2026-07-28',
      arthropods: [{ species: SPECIES_ID.cxTarsalis, sex: SEX_ID.fMixed, num_count: 25 }],
    }),
  );
  expect(c.statusCode, c.body).toBe(201);
  const p = await http.post('/v1/arthropod/pool', tech, {
    collection: c.json().id,
    species: SPECIES_ID.cxTarsalis,
    sex: SEX_ID.fMixed,
    num_count: 25,
  });
  expect(p.statusCode, p.body).toBe(201);
  return p.json().id as number;
}

const testBody = (pool: number, over: Record<string, unknown> = {}) => ({
  pool,
  method: METHOD.rtPcr,
  target: WNV,
  status: CONFIRMED,
  test_date: '2026-07-30',
  test_agency: LAB,
  value: 31.5,
  ...over,
});

const pathsOf = (res: Parameters<typeof errorOf>[0]) =>
  (errorOf(res).fields ?? []).map((f) => f.path).sort();

describe('a pool test’s date', () => {
  it('refuses a date 7 months ahead with 422 naming test_date, and writes nothing', async () => {
    const pool = await makePool();
    const before = await tableCounts(t);
    const res = await http.post(TESTS, tech, testBody(pool, { test_date: '2027-03-01' }));
    expect(res.statusCode).toBe(422);
    expect(errorOf(res).code).toBe('validation_failed');
    expect(errorOf(res).fields).toEqual([
      { path: 'test_date', message: expect.stringContaining('2027-03-01 is in the future') },
    ]);
    expect(await tableCounts(t)).toEqual(before);
  });

  it('accepts up to the next UTC day (a tablet east of UTC), not the day after', async () => {
    const pool = await makePool();
    for (const test_date of ['2026-08-01', '2026-08-02', '2026-08-02T09:00:00+14:00']) {
      const res = await http.post(TESTS, tech, testBody(pool, { test_date }));
      expect(res.statusCode, `${test_date}: ${res.body}`).toBe(201);
    }
    for (const test_date of ['2026-08-03', '2026-08-03T00:30:00+14:00']) {
      const res = await http.post(TESTS, tech, testBody(pool, { test_date }));
      expect(res.statusCode, test_date).toBe(422);
      expect(pathsOf(res)).toEqual(['test_date']);
    }
  });

  it('refuses moving a test into the future, and lets other edits of it through', async () => {
    const pool = await makePool();
    const test = (await http.post(TESTS, tech, testBody(pool))).json();
    const moved = await http.put(`${TESTS}/${test.id}`, tech, { test_date: '2026-12-01' });
    expect(moved.statusCode).toBe(422);
    expect(pathsOf(moved)).toEqual(['test_date']);
    const read = (await http.get(`${TESTS}/${test.id}`, tech)).json();
    expect(read.test_date).toBe('2026-07-30T00:00:00.000Z');
    const edited = await http.put(`${TESTS}/${test.id}`, tech, { comments: 'plate 7' });
    expect(edited.statusCode).toBe(200);
  });
});

describe('a pool test’s value', () => {
  it('refuses a Ct of −5 or 45.5 from RT-PCR with 422 naming value; 0 and 45 pass', async () => {
    const pool = await makePool();
    const before = await tableCounts(t);
    for (const value of [-5, 45.5]) {
      const res = await http.post(TESTS, tech, testBody(pool, { value }));
      expect(res.statusCode, String(value)).toBe(422);
      expect(errorOf(res).code).toBe('validation_failed');
      expect(pathsOf(res)).toEqual(['value']);
    }
    expect(await tableCounts(t)).toEqual(before);
    for (const value of [0, 45]) {
      expect((await http.post(TESTS, tech, testBody(pool, { value }))).statusCode).toBe(201);
    }
  });

  it('names both fields when the Ct and the date are both impossible', async () => {
    const res = await http.post(
      TESTS,
      tech,
      testBody(await makePool(), { value: 50, test_date: '2027-03-01' }),
    );
    expect(res.statusCode).toBe(422);
    expect(pathsOf(res)).toEqual(['test_date', 'value']);
  });

  it('takes RAMP units above 45 but never a negative value', async () => {
    const pool = await makePool();
    const ramp = await http.post(TESTS, tech, testBody(pool, { method: METHOD.ramp, value: 212 }));
    expect(ramp.statusCode, ramp.body).toBe(201);
    const negative = await http.post(
      TESTS,
      tech,
      testBody(pool, { method: METHOD.ramp, value: -1 }),
    );
    expect(negative.statusCode).toBe(422);
    expect(pathsOf(negative)).toEqual(['value']);
  });

  it('checks a Ct on PUT with the method it will have', async () => {
    const pool = await makePool();
    const test = (await http.post(TESTS, tech, testBody(pool))).json();
    const tooHigh = await http.put(`${TESTS}/${test.id}`, tech, { value: 60 });
    expect(tooHigh.statusCode).toBe(422);
    expect(pathsOf(tooHigh)).toEqual(['value']);
    const ramp = (
      await http.post(TESTS, tech, testBody(pool, { method: METHOD.ramp, value: 212 }))
    ).json();
    const toPcr = await http.put(`${TESTS}/${ramp.id}`, tech, { method: METHOD.rtPcr });
    expect(toPcr.statusCode).toBe(422);
    expect(pathsOf(toPcr)).toEqual(['value']);
    const both = await http.put(`${TESTS}/${ramp.id}`, tech, {
      method: METHOD.rtPcr,
      value: 33.1,
    });
    expect(both.statusCode, both.body).toBe(200);
  });
});
