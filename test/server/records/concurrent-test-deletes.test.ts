import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestRecords, type TestRecords } from '../helpers/records-app';
import { lockRace, type LockRace } from './helpers/lock-race';
import { SEX_ID, SPECIES_ID, api, makeCollection, type Api } from './helpers/arthropod-fixtures';

/**
 * A pool test edited while a manager deletes its pool or collection (PostgreSQL, READ COMMITTED):
 * the deletes lock collection, then pool, then the pool's tests (retiring them); a test edit must
 * take them in that order too, or the two wait on each other and PostgreSQL aborts one
 * (deadlock_detected), which the client sees as a 500. A blocker on a second connection makes
 * the interleaving happen, as in concurrent-rules.test.ts.
 */
const adminUrl = process.env.TRAPLINE_TEST_DATABASE_URL;

const COLLECTIONS = '/v1/arthropod/collection';
const POOLS = '/v1/arthropod/pool';
const TESTS = '/v1/arthropod/pool/test';
const tarsalis = { species: SPECIES_ID.cxTarsalis, sex: SEX_ID.fUnfed };

describe.runIf(adminUrl)('on PostgreSQL, a test edit racing a delete of its pool', () => {
  let t: TestRecords;
  let http: Api;
  let manager: string;
  let blocker: pg.Client;
  let race: LockRace['race'];
  let waiting: LockRace['waiting'];
  let locks: LockRace;

  beforeAll(async () => {
    t = await buildTestRecords();
    http = api(t);
    manager = await t.login('demo-manager');
    locks = await lockRace(t, adminUrl as string);
    ({ race, waiting, blocker } = locks);
  }, 120_000);
  afterAll(async () => {
    await locks?.close();
    await t?.close();
  });

  async function created(url: string, body: Record<string, unknown>) {
    const res = await http.post(url, manager, body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as Record<string, unknown> & { id: number };
  }

  async function poolWithTest() {
    const c = await created(
      COLLECTIONS,
      makeCollection({
        collection_date: '2026-07-14',
        arthropods: [{ ...tarsalis, num_count: 50 }],
      }),
    );
    const p = await created(POOLS, { collection: c.id, ...tarsalis, num_count: 5 });
    const test = await created(TESTS, {
      pool: p.id,
      method: 1,
      target: 1,
      status: 2,
      test_date: '2026-07-16',
      test_agency: 3,
    });
    return { c, p, test };
  }

  async function activeTest(id: number) {
    const res = await http.get(`${TESTS}?query[id]=${id}`, manager);
    return res.json().count as number;
  }

  it('a test re-dated while its pool is deleted: both answer, the test retires with the pool', async () => {
    const { c, p, test } = await poolWithTest();
    // The edit locks the test, then waits for the collection the blocker holds; the delete then
    // retires the pool and waits for the test's row.
    const [edit, del] = await race(
      `select id from collection where id = ${c.id} for update`,
      () => http.put(`${TESTS}/${test.id}`, manager, { test_date: '2026-07-17' }),
      () => http.del(`${POOLS}/${p.id}`, manager),
    );
    expect(del.statusCode, del.body).toBe(200);
    expect([200, 404, 422], edit.body).toContain(edit.statusCode);
    expect(await activeTest(test.id)).toBe(0);
  });

  it('a test re-dated while its collection is deleted: both answer, the test retires with it', async () => {
    const { c, p, test } = await poolWithTest();
    // The delete locks the collection, then waits for the pool the blocker holds; the edit then
    // locks the test and waits for the collection.
    const [del, edit] = await race(
      `select id from pool where id = ${p.id} for update`,
      () => http.del(`${COLLECTIONS}/${c.id}`, manager),
      () => http.put(`${TESTS}/${test.id}`, manager, { test_date: '2026-07-17' }),
    );
    expect(del.statusCode, del.body).toBe(200);
    expect([200, 404, 422], edit.body).toContain(edit.statusCode);
    expect(await activeTest(test.id)).toBe(0);
  });
  it('a test re-dated while another writer moves it to a later pool: checked against where it now is', async () => {
    const { test } = await poolWithTest();
    const later = await created(
      COLLECTIONS,
      makeCollection({
        collection_date: '2026-07-20',
        arthropods: [{ ...tarsalis, num_count: 50 }],
      }),
    );
    const p2 = await created(POOLS, { collection: later.id, ...tarsalis, num_count: 5 });
    // The other writer holds the test's row, moved to p2 (dated 07-20), while the re-dating
    // (07-17: after its first collection, before the new one) waits for it.
    await blocker.query('begin');
    await blocker.query(
      `update pool_test set pool = ${p2.id}, test_date = '2026-07-21' where id = ${test.id}`,
    );
    let edit;
    try {
      edit = http.put(`${TESTS}/${test.id}`, manager, { test_date: '2026-07-17' });
      expect(await waiting(1)).toBe(true);
    } finally {
      await blocker.query('commit');
    }
    const res = await edit;
    expect(res.statusCode, res.body).toBe(422);
    const stored = (await http.get(`${TESTS}/${test.id}`, manager)).json();
    expect(stored.test_date.slice(0, 10)).toBe('2026-07-21');
  });
});
