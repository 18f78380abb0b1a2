import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestRecords, type TestRecords } from '../../helpers/records-app';
import { SEX_ID, SPECIES_ID, api, makeCollection, type Api } from '../helpers/arthropod-fixtures';

/** Issue 2 gaps 14 and 16: pool and pool-test lists, and deleting a collection with pools. */

const POOLS = '/v1/arthropod/pool';
const TESTS = '/v1/arthropod/pool/test';
const TEST = { method: 1, target: 1, test_agency: 3 };
const STATUS = { confirmed: 1, negative: 2 };

let t: TestRecords;
let http: Api;
let manager: string;
let collection: number;
const pools: { id: number; pool_num: number }[] = [];

beforeAll(async () => {
  // Its records are dated 2040, so the service's clock is too: no test may be in the future.
  t = await buildTestRecords({ now: () => new Date('2040-08-01T12:00:00.000Z') });
  http = api(t);
  manager = await t.login('demo-manager');
  const c = await http.post(
    '/v1/arthropod/collection',
    manager,
    makeCollection({
      collection_date: '2040-07-01',
      arthropods: [{ species: SPECIES_ID.cxTarsalis, sex: SEX_ID.fMixed, num_count: 100 }],
    }),
  );
  expect(c.statusCode, c.body).toBe(201);
  collection = c.json().id;
  for (let i = 1; i <= 5; i++) {
    const p = await http.post(POOLS, manager, {
      collection,
      species: SPECIES_ID.cxTarsalis,
      sex: SEX_ID.fMixed,
      num_count: i,
      comments: i % 2 === 0 ? `even pool ${i}` : `odd pool ${i}`,
    });
    expect(p.statusCode, p.body).toBe(201);
    pools.push(p.json());
    const pt = await http.post(TESTS, manager, {
      pool: p.json().id,
      test_date: `2040-07-1${i}`,
      status: i === 3 ? STATUS.confirmed : STATUS.negative,
      comments: i === 3 ? 'plate B positive' : 'plate A',
      ...TEST,
    });
    expect(pt.statusCode, pt.body).toBe(201);
  }
}, 60_000);
afterAll(async () => t?.close());

describe('GET /v1/arthropod/pool', () => {
  it('pages, sorts, searches and filters, with count before paging', async () => {
    const page = await http.get(
      `${POOLS}?query[collection]=${collection}&sort=-num_count&page=2&pageSize=2`,
      manager,
    );
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json().count).toBe(5);
    expect(page.json().rows.map((r: { num_count: number }) => r.num_count)).toEqual([3, 2]);

    const found = await http.get(
      `${POOLS}?query[collection]=${collection}&search=even&sort=num_count`,
      manager,
    );
    expect(found.json().rows.map((r: { num_count: number }) => r.num_count)).toEqual([2, 4]);

    const filtered = await http.get(
      `${POOLS}?query[num_count][$gte]=4&query[surv_year]=2040&fields[]=pool_num`,
      manager,
    );
    expect(filtered.json().rows).toEqual([
      { id: pools[3].id, pool_num: pools[3].pool_num },
      { id: pools[4].id, pool_num: pools[4].pool_num },
    ]);
  });
});

describe('GET /v1/arthropod/pool/test', () => {
  it('pages, sorts, searches and filters, with count before paging', async () => {
    const page = await http.get(`${TESTS}?sort=-test_date&pageSize=2`, manager);
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json().count).toBe(5);
    expect(page.json().rows.map((r: { test_date: string }) => r.test_date.slice(0, 10))).toEqual([
      '2040-07-15',
      '2040-07-14',
    ]);

    const found = await http.get(`${TESTS}?search=positive`, manager);
    expect(found.json().rows.map((r: { pool: number }) => r.pool)).toEqual([pools[2].id]);

    const filtered = await http.get(
      `${TESTS}?query[status]=${STATUS.negative}&query[test_date][$lt]=2040-07-13&sort=test_date`,
      manager,
    );
    expect(filtered.json().rows.map((r: { pool: number }) => r.pool)).toEqual([
      pools[0].id,
      pools[1].id,
    ]);
  });
});

describe('deleting a collection', () => {
  it('retires its active pools in the same request', async () => {
    const c = await http.post(
      '/v1/arthropod/collection',
      manager,
      makeCollection({
        collection_date: '2041-07-01',
        arthropods: [{ species: SPECIES_ID.cxTarsalis, sex: SEX_ID.fMixed, num_count: 10 }],
      }),
    );
    const p = await http.post(POOLS, manager, {
      collection: c.json().id,
      species: SPECIES_ID.cxTarsalis,
      sex: SEX_ID.fMixed,
      num_count: 2,
    });
    expect(p.statusCode, p.body).toBe(201);
    const del = await http.del(`/v1/arthropod/collection/${c.json().id}`, manager);
    expect(del.statusCode, del.body).toBe(200);
    const listed = await http.get(`${POOLS}?query[surv_year]=2041`, manager);
    expect(listed.json()).toEqual({ rows: [], count: 0 });
    const pool = await http.get(`${POOLS}/${p.json().id}`, manager);
    expect(pool.json().deactive_date).toBe(del.json().deactive_date);
  });
});
