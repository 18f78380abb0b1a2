import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../../../src/server/db/migrate';
import { buildTestRecords, type TestRecords } from '../../helpers/records-app';
import { SEX_ID, SPECIES_ID, api, makeCollection, type Api } from '../helpers/arthropod-fixtures';

/**
 * A pool a manager deletes takes its test results with it, as a deleted collection takes its
 * pools: a deleted pool's positive WNV result must not stay in the test lists (exports, other
 * clients' infection rates, a tablet pulling tests) as if it were still evidence. Look-alikes on
 * purpose: two equal pools of one collection with same-day tests; only the deleted one's go.
 */
const TESTS = '/v1/arthropod/pool/test';
const RT_PCR = 1;
const WNV = 1;
const CONFIRMED = 1;
const LAB = 3;

let t: TestRecords;
let http: Api;
let manager: string;

beforeAll(async () => {
  t = await buildTestRecords();
  http = api(t);
  manager = await t.login('demo-manager');
}, 180_000);
afterAll(async () => t?.close());

async function twinPoolsWithTests() {
  const c = await http.post(
    '/v1/arthropod/collection',
    manager,
    makeCollection({
      arthropods: [{ species: SPECIES_ID.cxTarsalis, sex: SEX_ID.fMixed, num_count: 50 }],
    }),
  );
  expect(c.statusCode, c.body).toBe(201);
  const pools: number[] = [];
  const tests: number[] = [];
  for (let i = 0; i < 2; i++) {
    const p = await http.post('/v1/arthropod/pool', manager, {
      collection: c.json().id,
      species: SPECIES_ID.cxTarsalis,
      sex: SEX_ID.fMixed,
      num_count: 25,
    });
    expect(p.statusCode, p.body).toBe(201);
    pools.push(p.json().id);
    // The same day, tested twice (a re-test): both results belong to the pool.
    for (let k = 0; k < 2; k++) {
      const res = await http.post(TESTS, manager, {
        pool: p.json().id,
        method: RT_PCR,
        target: WNV,
        status: CONFIRMED,
        test_date: '2026-07-20',
        test_agency: LAB,
      });
      expect(res.statusCode, res.body).toBe(201);
      tests.push(res.json().id);
    }
  }
  return { collection: c.json().id as number, pools, tests };
}

const listedTests = async (pools: number[]) => {
  const filter = pools.map((p, i) => `query[pool][$in][${i}]=${p}`).join('&');
  const res = await http.get(`${TESTS}?pageSize=1000&sort=id&${filter}`, manager);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { rows: { id: number }[] }).rows.map((r) => r.id);
};

describe('test results of a deleted pool', () => {
  it('leave the lists with their pool; its twin keeps its own', async () => {
    const { pools, tests } = await twinPoolsWithTests();
    const res = await http.del(`/v1/arthropod/pool/${pools[0]}`, manager);
    expect(res.statusCode, res.body).toBe(200);

    expect(await listedTests(pools)).toEqual(tests.slice(2));
    const retired = (await http.get(`${TESTS}/${tests[0]}`, manager)).json();
    expect(retired.deactive_date).not.toBeNull();
    // Deleting the pool again changes nothing (the first date stays).
    const again = await http.del(`/v1/arthropod/pool/${pools[0]}`, manager);
    expect(again.statusCode, again.body).toBe(200);
    expect((await http.get(`${TESTS}/${tests[0]}`, manager)).json().deactive_date).toBe(
      retired.deactive_date,
    );
  });

  it('leave the lists when their collection is deleted', async () => {
    const { collection, pools } = await twinPoolsWithTests();
    const res = await http.del(`/v1/arthropod/collection/${collection}`, manager);
    expect(res.statusCode, res.body).toBe(200);
    expect(await listedTests(pools)).toEqual([]);
  });

  it('of pools deleted before this rule are retired by the migration, dated as their pool', async () => {
    const { pools, tests } = await twinPoolsWithTests();
    // As an earlier version deleted a pool: the pool alone.
    await t.db.query(
      `update pool set deactive_date = '2026-08-02T10:00:00Z', updated = now() where id = $1`,
      [pools[0]],
    );
    await t.db.query('delete from schema_migration where version = 8');
    expect(await listedTests(pools)).toEqual(tests);

    expect(await migrate(t.db)).toEqual([8]);

    expect(await listedTests(pools)).toEqual(tests.slice(2));
    const retired = (await http.get(`${TESTS}/${tests[1]}`, manager)).json();
    expect(retired.deactive_date).toBe('2026-08-02T10:00:00.000Z');
  });
});
