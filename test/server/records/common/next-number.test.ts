import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Queryable } from '../../../../src/server/db/database';
import { nextNumber } from '../../../../src/server/records/common/next-number';
import { buildTestRecords, type TestRecords } from '../../helpers/records-app';
import {
  SEX_ID,
  SPECIES_ID,
  TRAP_ID,
  api,
  errorOf,
  makeCollection,
  type Api,
} from '../helpers/arthropod-fixtures';

/**
 * Issue 9, D2: one create with `collection_num: 2147483647` (or pool_num) made every later
 * defaulted create of that agency and year search the whole series for its lowest free number
 * under the number lock (~1,700 rows, 0.6–0.95 s each). Now explicit numbers are bounded by what
 * a year plausibly needs, and the next number is found through the series' unique index,
 * reading only the top of the series, whatever explicit numbers exist.
 */
const COLLECTIONS = '/v1/arthropod/collection';
const POOLS = '/v1/arthropod/pool';
const YEAR = 2026;
const BULK = 2000;

let t: TestRecords;
let http: Api;
let manager: string;
let holder: number;

beforeAll(async () => {
  t = await buildTestRecords();
  http = api(t);
  manager = await t.login('demo-manager');
  // A busy year, written straight to the tables: collections and pools numbered 1..BULK.
  await t.db.query(
    `insert into collection (agency, collection_date, collection_num, num_trap, surv_year, trap, trap_nights)
     select 1, '2026-06-01', n, 1, $1, $2, 1 from generate_series(1, $3::int) n`,
    [YEAR, TRAP_ID.co2, BULK],
  );
  await t.db.query(
    `insert into pool (agency, surv_year, pool_num, num_count, species, sex, collection_date, trap)
     select 1, $1, n, 1, $2, $3, '2026-06-01', $4 from generate_series(1, $5::int) n`,
    [YEAR, SPECIES_ID.cxTarsalis, SEX_ID.fUnfed, TRAP_ID.co2, BULK],
  );
  const c = await http.post(
    COLLECTIONS,
    manager,
    makeCollection({
      collection_num: 3000,
      arthropods: [{ species: SPECIES_ID.cxTarsalis, sex: SEX_ID.fUnfed, num_count: 100 }],
    }),
  );
  expect(c.statusCode, c.body).toBe(201);
  holder = c.json().id;
}, 180_000);
afterAll(async () => t?.close());

const poolBody = (over: Record<string, unknown> = {}) => ({
  collection: holder,
  species: SPECIES_ID.cxTarsalis,
  sex: SEX_ID.fUnfed,
  num_count: 1,
  ...over,
});

/**
 * Rows read by every statement `nextNumber` runs, measured with EXPLAIN ANALYZE (the sum of
 * the rows each scan node returned), and how many statements it ran.
 */
async function costOfNextNumber(series: 'collection' | 'pool') {
  const statements: { sql: string; params: unknown[] }[] = [];
  const recorder: Queryable = {
    query: (sql, params) => {
      statements.push({ sql, params: [...(params ?? [])] });
      return t.db.query(sql, params);
    },
    exec: (sql) => t.db.exec(sql),
  };
  const next = await nextNumber(recorder, series, 1, YEAR);
  let rowsRead = 0;
  for (const s of statements) {
    const { rows } = await t.db.query<{ 'QUERY PLAN': unknown }>(
      `explain (analyze, format json) ${s.sql}`,
      s.params,
    );
    const walk = (node: Record<string, unknown>) => {
      if (String(node['Node Type']).includes('Scan'))
        rowsRead += Number(node['Actual Rows']) * Number(node['Actual Loops'] ?? 1);
      for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child);
    };
    const plan = rows[0]['QUERY PLAN'];
    walk((typeof plan === 'string' ? JSON.parse(plan) : plan)[0].Plan);
  }
  return { next, rowsRead, statements: statements.length };
}

describe('explicit numbers are bounded by what a year plausibly needs', () => {
  it.each([
    ['collection_num', 2147483647],
    ['collection_num', 1_000_000],
  ])('POST a collection with %s %d → 422 naming the field', async (field, value) => {
    const res = await http.post(COLLECTIONS, manager, makeCollection({ [field]: value }));
    expect(res.statusCode, res.body).toBe(422);
    expect(errorOf(res).fields?.map((f) => f.path)).toEqual([field]);
    expect(errorOf(res).message).toMatch(/at most 999999/);
  });

  it.each([2147483647, 1_000_000])(
    'POST a pool with pool_num %d → 422 naming pool_num',
    async (value) => {
      const res = await http.post(POOLS, manager, poolBody({ pool_num: value }));
      expect(res.statusCode, res.body).toBe(422);
      expect(errorOf(res).fields?.map((f) => f.path)).toEqual(['pool_num']);
    },
  );

  it('PUT cannot move a number past the bound either', async () => {
    const c = await http.put(`${COLLECTIONS}/${holder}`, manager, { collection_num: 2147483647 });
    expect(c.statusCode, c.body).toBe(422);
    expect(errorOf(c).fields?.map((f) => f.path)).toEqual(['collection_num']);
    const p = (await http.post(POOLS, manager, poolBody())).json();
    const res = await http.put(`${POOLS}/${p.id}`, manager, { pool_num: 1_000_000 });
    expect(res.statusCode, res.body).toBe(422);
    expect(errorOf(res).fields?.map((f) => f.path)).toEqual(['pool_num']);
  });

  it('the top number itself is accepted, once (duplicates stay 409)', async () => {
    const first = await http.post(COLLECTIONS, manager, makeCollection({ collection_num: 999999 }));
    expect(first.statusCode, first.body).toBe(201);
    const again = await http.post(COLLECTIONS, manager, makeCollection({ collection_num: 999999 }));
    expect(again.statusCode).toBe(409);
    expect(errorOf(again).code).toBe('collection_num_taken');
    expect((await http.post(POOLS, manager, poolBody({ pool_num: 999999 }))).statusCode).toBe(201);
    const dup = await http.post(POOLS, manager, poolBody({ pool_num: 999999 }));
    expect(dup.statusCode).toBe(409);
    expect(errorOf(dup).code).toBe('pool_num_taken');
  });
});

describe('the next number stays cheap and correct whatever explicit numbers exist', () => {
  it('with the top of the range taken (and numbers beyond it from before the bound)', async () => {
    // Numbers an older version accepted: the int maximum, and a run up to the bound.
    for (const table of ['collection', 'pool'] as const) {
      const col = `${table}_num`;
      const extra =
        table === 'collection'
          ? `num_trap, trap, trap_nights) select 1, '2026-06-01', n, $1, 1, ${TRAP_ID.co2}, 1`
          : `num_count, species, sex) select 1, '2026-06-01', n, $1, 1, ${SPECIES_ID.cxTarsalis}, ${SEX_ID.fUnfed}`;
      await t.db.query(
        `insert into ${table} (agency, collection_date, ${col}, surv_year, ${extra}
           from unnest(array[2147483647, 2000000000, 999990, 999991, 999992, 999993, 999994, 999995, 999996, 999997, 999998]) n`,
        [YEAR],
      );
    }
    for (const series of ['collection', 'pool'] as const) {
      const cost = await costOfNextNumber(series);
      // The bulk is 1..2000 (+3000 for collections, +1..n pools made above): next follows the
      // highest number below the run that fills the top of the range.
      const { rows } = await t.db.query<{ max: number }>(
        `select max(${series}_num) as max from ${series} where agency = 1 and surv_year = $1 and ${series}_num < 999990`,
        [YEAR],
      );
      expect(cost.next).toBe(Number(rows[0].max) + 1);
      console.log(
        `${series}: next ${cost.next}, ${cost.statements} statement(s), ${cost.rowsRead} rows read`,
      );
      expect(cost.statements).toBeLessThanOrEqual(2);
      // The top run (10 numbers) and one more, not the ~2,000-row series.
      expect(cost.rowsRead).toBeLessThanOrEqual(20);
    }
  });

  it('defaulted creates follow the bulk, and concurrent ones never share a number', async () => {
    const made = await Promise.all(
      Array.from({ length: 8 }, () => http.post(COLLECTIONS, manager, makeCollection())),
    );
    const nums = made.map((r) => {
      expect(r.statusCode, r.body).toBe(201);
      return r.json().collection_num as number;
    });
    expect(new Set(nums).size).toBe(8);
    expect(Math.min(...nums)).toBe(3001);
    expect(Math.max(...nums)).toBe(3008);
    const pools = await Promise.all(
      Array.from({ length: 5 }, () => http.post(POOLS, manager, poolBody())),
    );
    const poolNums = pools.map((r) => r.json().pool_num as number);
    expect(new Set(poolNums).size).toBe(5);
    expect(Math.max(...poolNums)).toBeLessThan(999990);
  });

  it('an empty year starts at 1; a year holding only the top number starts at 1 too', async () => {
    expect(await nextNumber(t.db, 'collection', 1, 1999)).toBe(1);
    await t.db.query(
      `insert into collection (agency, collection_date, collection_num, num_trap, surv_year, trap, trap_nights)
       values (1, '1998-06-01', 999999, 1, 1998, $1, 1)`,
      [TRAP_ID.co2],
    );
    expect(await nextNumber(t.db, 'collection', 1, 1998)).toBe(1);
  });
});
