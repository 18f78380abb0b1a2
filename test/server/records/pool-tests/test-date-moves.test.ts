import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestRecords, type TestRecords } from '../../helpers/records-app';
import {
  SEX_ID,
  SPECIES_ID,
  TRAP_ID,
  api,
  errorOf,
  insertSite,
  makeCollection,
  type Api,
} from '../helpers/arthropod-fixtures';

/**
 * Contract §6: a pool test may not be dated before its pool's collection (422
 * test_before_collection). Issue 9, D4: the rule held when a test was written, but moving a
 * tested pool into a later collection, or changing a standalone pool's collection_date, was
 * accepted and left its tests dated before the collection. Every path that changes the date a
 * pool's tests are held to applies the rule.
 */
const POOLS = '/v1/arthropod/pool';
const COLLECTIONS = '/v1/arthropod/collection';
const TESTS = '/v1/arthropod/pool/test';

let t: TestRecords;
let http: Api;
let manager: string;
let site: number;

beforeAll(async () => {
  t = await buildTestRecords();
  http = api(t);
  manager = await t.login('demo-manager');
  site = await insertSite(t, 1);
}, 180_000);
afterAll(async () => t?.close());

const tarsalis = { species: SPECIES_ID.cxTarsalis, sex: SEX_ID.fMixed };

async function created(url: string, body: Record<string, unknown>) {
  const res = await http.post(url, manager, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as Record<string, unknown> & { id: number };
}

const collectionOn = (collection_date: string, over: Record<string, unknown> = {}) =>
  created(
    COLLECTIONS,
    makeCollection({ collection_date, arthropods: [{ ...tarsalis, num_count: 50 }], ...over }),
  );

const testOn = (pool: number, test_date: string) =>
  created(TESTS, { pool, method: 1, target: 1, status: 2, test_date, test_agency: 3 });

async function expectRefused(url: string, body: Record<string, unknown>, path: string) {
  const before = (await http.get(url, manager)).json();
  const res = await http.put(url, manager, body);
  expect(res.statusCode, res.body).toBe(422);
  expect(errorOf(res).code).toBe('test_before_collection');
  expect(errorOf(res).fields?.map((f) => f.path)).toEqual([path]);
  expect(errorOf(res).message).toMatch(/tested on 2026-07-0\d/);
  // Nothing written.
  expect((await http.get(url, manager)).json()).toEqual(before);
}

describe('moving a tested pool', () => {
  it('into a collection dated after its test → 422 naming collection; earlier or same day is fine', async () => {
    const first = await collectionOn('2026-07-01');
    const later = await collectionOn('2026-07-20');
    const sameDay = await collectionOn('2026-07-02');
    const pool = await created(POOLS, { collection: first.id, ...tarsalis, num_count: 5 });
    await testOn(pool.id, '2026-07-02');

    await expectRefused(`${POOLS}/${pool.id}`, { collection: later.id }, 'collection');

    const ok = await http.put(`${POOLS}/${pool.id}`, manager, { collection: sameDay.id });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().collection_date).toBe('2026-07-02T00:00:00.000Z');
  });

  it('out of its collection with a later collection_date → 422 naming collection_date', async () => {
    const first = await collectionOn('2026-07-01');
    const pool = await created(POOLS, { collection: first.id, ...tarsalis, num_count: 5 });
    await testOn(pool.id, '2026-07-03');
    await expectRefused(
      `${POOLS}/${pool.id}`,
      { collection: null, site, trap: TRAP_ID.co2, collection_date: '2026-07-09' },
      'collection_date',
    );
  });

  it('a retired test does not hold the pool back', async () => {
    const first = await collectionOn('2026-07-01');
    const later = await collectionOn('2026-07-20');
    const pool = await created(POOLS, { collection: first.id, ...tarsalis, num_count: 5 });
    const test = await testOn(pool.id, '2026-07-02');
    await t.db.query('update pool_test set deactive_date = now() where id = $1', [test.id]);
    const res = await http.put(`${POOLS}/${pool.id}`, manager, { collection: later.id });
    expect(res.statusCode, res.body).toBe(200);
  });
});

describe('changing a standalone pool’s collection_date', () => {
  it('past its test → 422 naming collection_date; up to the test day is fine', async () => {
    const pool = await created(POOLS, {
      site,
      collection_date: '2026-07-01',
      trap: TRAP_ID.co2,
      primary_source_bit: true,
      ...tarsalis,
      num_count: 5,
    });
    expect(pool.collection).toBeNull();
    await testOn(pool.id, '2026-07-05');

    await expectRefused(
      `${POOLS}/${pool.id}`,
      { collection_date: '2026-07-06' },
      'collection_date',
    );

    const ok = await http.put(`${POOLS}/${pool.id}`, manager, { collection_date: '2026-07-05' });
    expect(ok.statusCode, ok.body).toBe(200);
  });
});

describe('changing a collection’s date', () => {
  it('past a test of its pools → 422 naming collection_date', async () => {
    const c = await collectionOn('2026-07-01');
    const pool = await created(POOLS, { collection: c.id, ...tarsalis, num_count: 5 });
    await testOn(pool.id, '2026-07-04');
    await expectRefused(
      `${COLLECTIONS}/${c.id}`,
      { collection_date: '2026-07-05' },
      'collection_date',
    );
  });

  it('making its date a date only (a later earliest day) past a test → 422', async () => {
    // 06:00 UTC on the 5th is still the 4th west of UTC−6, so a test on the 4th is accepted…
    const c = await collectionOn('2026-07-05T06:00:00Z');
    const pool = await created(POOLS, { collection: c.id, ...tarsalis, num_count: 5 });
    await testOn(pool.id, '2026-07-04');
    // …until the collection says its written day is the whole truth.
    await expectRefused(
      `${COLLECTIONS}/${c.id}`,
      { collection_date_date_only: true },
      'collection_date',
    );
  });
});
