import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestRecords, type TestRecords } from '../../helpers/records-app';
import { MAX_SERIES_NUMBER } from '../../../../src/server/records/common/next-number';
import { SEX_ID, SPECIES_ID, api, makeCollection, type Api } from '../helpers/arthropod-fixtures';

/** Issue 2 gaps 5, 6 and 16: collection and pool numbering at the edges. */

const COLLECTIONS = '/v1/arthropod/collection';
const POOLS = '/v1/arthropod/pool';

let t: TestRecords;
let http: Api;
let manager: string;

beforeAll(async () => {
  t = await buildTestRecords();
  http = api(t);
  manager = await t.login('demo-manager');
}, 60_000);
afterAll(async () => t?.close());

async function collect(over: Record<string, unknown>) {
  const res = await http.post(
    COLLECTIONS,
    manager,
    makeCollection({
      arthropods: [{ species: SPECIES_ID.cxTarsalis, sex: SEX_ID.fMixed, num_count: 50 }],
      ...over,
    }),
  );
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: number; collection_num: number; surv_year: number };
}

async function poolOf(collection: number, over: Record<string, unknown> = {}) {
  const res = await http.post(POOLS, manager, {
    collection,
    species: SPECIES_ID.cxTarsalis,
    sex: SEX_ID.fMixed,
    num_count: 1,
    ...over,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: number; pool_num: number; surv_year: number };
}

// Explicit numbers stop at MAX_SERIES_NUMBER (issue 9, D2; beyond it → 422, see
// common/next-number.test.ts); taking the top one must not stop defaulted numbering.
describe('numbering after an explicit number at the top of the range', () => {
  it('gives the next defaulted collection the lowest free number of its year', async () => {
    await collect({ collection_date: '2031-05-01' });
    await collect({ collection_date: '2031-05-02', collection_num: MAX_SERIES_NUMBER });
    const next = await collect({ collection_date: '2031-05-03' });
    expect(next.collection_num).toBe(2);
    const after = await collect({ collection_date: '2031-05-04' });
    expect(after.collection_num).toBe(3);
  });

  it('gives the next defaulted pool the lowest free number of its year', async () => {
    const c = await collect({ collection_date: '2032-05-01' });
    await poolOf(c.id, { pool_num: MAX_SERIES_NUMBER });
    expect((await poolOf(c.id)).pool_num).toBe(1);
    expect((await poolOf(c.id)).pool_num).toBe(2);
  });
});

describe('moving collection_date into another year', () => {
  it('moves surv_year and keeps numbers unique', async () => {
    const in2033 = await collect({ collection_date: '2033-06-01' });
    const moving = await collect({ collection_date: '2034-06-01' });
    expect([in2033.collection_num, moving.collection_num]).toEqual([1, 1]);
    const pool = await poolOf(moving.id);

    const res = await http.put(`${COLLECTIONS}/${moving.id}`, manager, {
      collection_date: '2033-06-02',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ surv_year: 2033, collection_num: 2 });
    const movedPool = await http.get(`${POOLS}/${pool.id}`, manager);
    expect(movedPool.json().surv_year).toBe(2033);

    const list = await http.get(`${COLLECTIONS}?query[surv_year]=2033&pageSize=50`, manager);
    const nums = (list.json().rows as { collection_num: number }[]).map((r) => r.collection_num);
    expect(new Set(nums).size).toBe(nums.length);
  });

  it('keeps its number when it is free in the new year', async () => {
    const c = await collect({ collection_date: '2035-06-01', collection_num: 7 });
    const res = await http.put(`${COLLECTIONS}/${c.id}`, manager, {
      collection_date: '2036-01-03',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ surv_year: 2036, collection_num: 7 });
  });

  it('keeps an explicitly sent surv_year', async () => {
    const c = await collect({ collection_date: '2037-12-31' });
    const res = await http.put(`${COLLECTIONS}/${c.id}`, manager, {
      collection_date: '2038-01-01',
      surv_year: 2037,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().surv_year).toBe(2037);
  });
});

describe('concurrent pools', () => {
  it('gives 8 pools created at once on 8 collections of one year 8 distinct numbers', async () => {
    const collections = [];
    for (let i = 0; i < 8; i++) collections.push(await collect({ collection_date: '2039-07-01' }));
    const answers = await Promise.all(
      collections.map((c) =>
        http.post(POOLS, manager, {
          collection: c.id,
          species: SPECIES_ID.cxTarsalis,
          sex: SEX_ID.fMixed,
          num_count: 2,
        }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(8).fill(201));
    const nums = answers.map((a) => a.json().pool_num as number);
    expect(new Set(nums).size).toBe(8);
  });
});
