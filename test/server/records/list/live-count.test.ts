import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestRecords, type TestRecords } from '../../helpers/records-app';
import { api, makeCollection, SEX_ID, SPECIES_ID, type Api } from '../helpers/arthropod-fixtures';
import { openEmptyPglite } from '../../helpers/test-database';
import { migrate } from '../../../../src/server/db/migrate';
import { MIGRATIONS } from '../../../../src/server/db/migrations';
import { buildRecords } from '../../../../src/server/records/app';
import { seedTestAccounts } from '../../../helpers/seed-test-accounts';

const COLLECTIONS = '/v1/arthropod/collection';
const POOLS = '/v1/arthropod/pool';
const TESTS = '/v1/arthropod/pool/test';
const TICK = 15;

let t: TestRecords;
let http: Api;
let manager: string;
let neighbor: string;
beforeAll(async () => {
  t = await buildTestRecords();
  http = api(t);
  manager = await t.login('demo-manager');
  neighbor = await t.login('neighbor-manager');
}, 300_000);
afterAll(async () => t?.close());

/**
 * The list's `count` two ways: unfiltered with a one-row page (answered from the maintained
 * counter) and with a condition every row meets (answered by counting the rows).
 */
async function counts(path: string, token = manager, extra = '') {
  const plain = await http.get(`${path}?pageSize=1${extra}`, token);
  const counted = await http.get(`${path}?pageSize=1&query[id][$gt]=0${extra}`, token);
  expect(plain.statusCode, plain.body).toBe(200);
  return { plain: plain.json().count as number, counted: counted.json().count as number };
}

async function post(path: string, body: Record<string, unknown>, token = manager) {
  const res = await http.post(path, token, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: number };
}

it('counts exactly what the list holds through creates and deletes, per agency and species type', async () => {
  const made: number[] = [];
  const caught = makeCollection({
    arthropods: [
      { species: SPECIES_ID.cxTarsalis, sex: SEX_ID.fUnfed, num_count: 50 },
      { species: TICK, sex: SEX_ID.other, num_count: 4 },
    ],
  });
  for (let i = 0; i < 4; i++) made.push((await post(COLLECTIONS, caught)).id);
  await post(COLLECTIONS, caught, neighbor);
  expect(await counts(COLLECTIONS)).toEqual({ plain: 4, counted: 4 });
  expect(await counts(COLLECTIONS, neighbor)).toEqual({ plain: 1, counted: 1 });

  const tarsalis = { species: SPECIES_ID.cxTarsalis, sex: SEX_ID.fUnfed, num_count: 5 };
  const p1 = await post(POOLS, { collection: made[0], ...tarsalis });
  await post(POOLS, { collection: made[1], ...tarsalis });
  await post(POOLS, { collection: made[1], species: TICK, sex: SEX_ID.other, num_count: 2 });
  expect(await counts(POOLS)).toEqual({ plain: 2, counted: 2 });
  expect(await counts(POOLS, manager, '&type=tick')).toEqual({ plain: 1, counted: 1 });

  await post(TESTS, {
    pool: p1.id,
    method: 1,
    target: 1,
    status: 2,
    test_date: '2026-07-16',
    test_agency: 3,
  });
  expect(await counts(TESTS)).toEqual({ plain: 1, counted: 1 });

  // Deleting a collection retires it and its pools: both lists count one less.
  expect((await http.del(`${COLLECTIONS}/${made[1]}`, manager)).statusCode).toBe(200);
  expect(await counts(COLLECTIONS)).toEqual({ plain: 3, counted: 3 });
  expect(await counts(POOLS)).toEqual({ plain: 1, counted: 1 });
  expect(await counts(POOLS, manager, '&type=tick')).toEqual({ plain: 0, counted: 0 });
  expect((await http.del(`${POOLS}/${p1.id}`, manager)).statusCode).toBe(200);
  expect(await counts(POOLS)).toEqual({ plain: 0, counted: 0 });
  // A page past the end still tells the total.
  const past = await http.get(`${COLLECTIONS}?pageSize=2&page=5`, manager);
  expect(past.json()).toEqual({ rows: [], count: 3 });
  // A last, short page tells it too.
  const last = await http.get(`${COLLECTIONS}?pageSize=2&page=2`, manager);
  expect(last.json().rows).toHaveLength(1);
  expect(last.json().count).toBe(3);
}, 300_000);

it('starts its counters from the rows an upgraded database already holds, and pools sort by their collection date', async () => {
  // A database at version 3, as an install upgrading to this version holds it (the helper's
  // database would already be at the latest version).
  const db = await openEmptyPglite();
  try {
    await migrate(
      db,
      MIGRATIONS.filter((m) => m.version < 4),
    );
    await seedTestAccounts(db, 'test-password-correct-horse');
    const { rows } = await db.query<{ id: number }>(
      `insert into collection (agency, collection_date, collection_num, num_trap, surv_year, trap, trap_nights)
       values (1, '2026-07-14', 1, 1, 2026, 1, 1), (1, '2026-07-01', 2, 1, 2026, 1, 1),
              (1, '2026-06-01', 3, 1, 2026, 1, 1) returning id`,
    );
    await db.query(`update collection set deactive_date = now() where id = $1`, [rows[2].id]);
    // A pool written before its collection's date was copied onto it: no date of its own.
    await db.query(
      `insert into pool (agency, collection, surv_year, pool_num, num_count, species, sex, collection_date)
       values (1, $1, 2026, 1, 5, $3, $4, null), (1, $2, 2026, 2, 5, $3, $4, '2026-07-01')`,
      [rows[0].id, rows[1].id, SPECIES_ID.cxTarsalis, SEX_ID.fUnfed],
    );
    await migrate(db);
    const app = await buildRecords({ db });
    try {
      const login = await app.inject({
        method: 'POST',
        url: '/login',
        payload: { username: 'demo-manager', password: 'test-password-correct-horse' },
      });
      const headers = { authorization: `Bearer ${login.json().token}` };
      const list = async (url: string) =>
        (await app.inject({ method: 'GET', url, headers })).json();
      expect((await list(`${COLLECTIONS}?pageSize=1`)).count).toBe(2);
      const pools = await list(`${POOLS}?pageSize=1&sort=-collection_date`);
      expect(pools.count).toBe(2);
      expect(pools.rows[0].collection).toBe(rows[0].id);
      expect(pools.rows[0].collection_date).toBe('2026-07-14T00:00:00.000Z');
      const july = await list(`${POOLS}?query[collection_date][$gte]=2026-07-10`);
      expect(july.rows.map((p: { collection: number }) => p.collection)).toEqual([rows[0].id]);
    } finally {
      await app.close();
    }
  } finally {
    await db.close();
  }
}, 300_000);
