import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestRecords, type TestRecords } from '../helpers/records-app';
import { lockRace, type LockRace } from './helpers/lock-race';
import {
  SEX_ID,
  SPECIES_ID,
  api,
  errorOf,
  makeCollection,
  type Api,
} from './helpers/arthropod-fixtures';
import { makeSite } from './factories/make-site';

/**
 * Contract §6 rules under real concurrency (PostgreSQL, READ COMMITTED, several connections):
 * two requests that each pass a rule must not together break it. PGlite runs one transaction at
 * a time, so these races exist only on PostgreSQL (TRAPLINE_TEST_DATABASE_URL).
 *
 * The interleaving is made deterministic with a second connection (the blocker) that holds a lock
 * the first request needs after its checks: a lookup or agency row its insert's foreign key
 * checks, a site code's advisory lock, a collection row. The first request has then read and
 * checked what it checks, and waits, uncommitted, while the second request runs. Before the fixes
 * each second request was accepted on what the first could not yet see, and both were committed.
 */
const adminUrl = process.env.TRAPLINE_TEST_DATABASE_URL;

const COLLECTIONS = '/v1/arthropod/collection';
const POOLS = '/v1/arthropod/pool';
const TESTS = '/v1/arthropod/pool/test';
const METHOD = { rtPcr: 1, ramp: 2 };
const LAB = 3;
const tarsalis = { species: SPECIES_ID.cxTarsalis, sex: SEX_ID.fUnfed };

describe.runIf(adminUrl)('on PostgreSQL, rules hold when two requests race', () => {
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

  async function collectionOn(collection_date: string) {
    return created(
      COLLECTIONS,
      makeCollection({ collection_date, arthropods: [{ ...tarsalis, num_count: 50 }] }),
    );
  }

  const testBody = (pool: number, test_date: string, method = METHOD.rtPcr) => ({
    pool,
    method,
    target: 1,
    status: 2,
    test_date,
    test_agency: LAB,
  });

  /** What a data manager sees: the earliest active test of a pool and its collection's date. */
  async function testAndCollectionDays(pool: number) {
    const p = (await http.get(`${POOLS}/${pool}`, manager)).json() as {
      collection_date: string;
    };
    const tests = (await http.get(`${TESTS}?query[pool]=${pool}&sort=test_date`, manager)).json()
      .rows as Array<{ test_date: string }>;
    return { collection: p.collection_date.slice(0, 10), tests: tests.map((x) => x.test_date) };
  }

  it('a test recorded while its collection’s date moves past it: one of the two is refused', async () => {
    const c = await collectionOn('2026-07-14');
    const p = await created(POOLS, { collection: c.id, ...tarsalis, num_count: 5 });

    const [test, move] = await race(
      `select id from test_method where id = ${METHOD.rtPcr} for update`,
      () => http.post(TESTS, manager, testBody(p.id, '2026-07-16')),
      () => http.put(`${COLLECTIONS}/${c.id}`, manager, { collection_date: '2026-07-20' }),
    );

    expect(test.statusCode, test.body).toBe(201);
    expect(move.statusCode, move.body).toBe(422);
    expect(errorOf(move).code).toBe('test_before_collection');
    expect(await testAndCollectionDays(p.id)).toEqual({
      collection: '2026-07-14',
      tests: ['2026-07-16T00:00:00.000Z'],
    });
  });

  it('a test recorded while its pool moves into a later collection: one of the two is refused', async () => {
    const early = await collectionOn('2026-07-14');
    const later = await collectionOn('2026-07-20');
    const p = await created(POOLS, { collection: early.id, ...tarsalis, num_count: 5 });

    // Blocked on its agency's row, the test's insert checks that foreign key before the pool's.
    const [test, move] = await race(
      'select id from agency where id = 1 for update',
      () => http.post(TESTS, manager, testBody(p.id, '2026-07-16')),
      () => http.put(`${POOLS}/${p.id}`, manager, { collection: later.id }),
    );

    expect(test.statusCode, test.body).toBe(201);
    expect(move.statusCode, move.body).toBe(422);
    expect(errorOf(move).code).toBe('test_before_collection');
    expect(await testAndCollectionDays(p.id)).toEqual({
      collection: '2026-07-14',
      tests: ['2026-07-16T00:00:00.000Z'],
    });
  });

  it('a test re-dated earlier while its collection’s date moves later: one of the two is refused', async () => {
    const c = await collectionOn('2026-07-14');
    const p = await created(POOLS, { collection: c.id, ...tarsalis, num_count: 5 });
    const test = await created(TESTS, testBody(p.id, '2026-07-25'));

    // The re-date also changes the method, whose row the blocker holds.
    const [redate, move] = await race(
      `select id from test_method where id = ${METHOD.ramp} for update`,
      () =>
        http.put(`${TESTS}/${test.id}`, manager, { test_date: '2026-07-16', method: METHOD.ramp }),
      () => http.put(`${COLLECTIONS}/${c.id}`, manager, { collection_date: '2026-07-20' }),
    );

    expect(redate.statusCode, redate.body).toBe(200);
    expect(move.statusCode, move.body).toBe(422);
    expect(errorOf(move).code).toBe('test_before_collection');
    expect(await testAndCollectionDays(p.id)).toEqual({
      collection: '2026-07-14',
      tests: ['2026-07-16T00:00:00.000Z'],
    });
  });
  it('two pools drawn at once from one count: the second is refused', async () => {
    const c = await collectionOn('2026-07-14');
    const [a, b] = await race(
      'select id from agency where id = 1 for update',
      () => http.post(POOLS, manager, { collection: c.id, ...tarsalis, num_count: 30 }),
      () => http.post(POOLS, manager, { collection: c.id, ...tarsalis, num_count: 30 }),
    );
    expect(a.statusCode, a.body).toBe(201);
    expect(b.statusCode, b.body).toBe(422);
    expect(errorOf(b).code).toBe('pool_count_exceeds_abundance');
    const pools = (await http.get(`${POOLS}?query[collection]=${c.id}`, manager)).json();
    expect(pools.count).toBe(1);
  });

  it('a pool drawn while the count is lowered below it: the lowering is refused', async () => {
    const c = await collectionOn('2026-07-14');
    const [p, lower] = await race(
      'select id from agency where id = 1 for update',
      () => http.post(POOLS, manager, { collection: c.id, ...tarsalis, num_count: 30 }),
      () =>
        http.put(`${COLLECTIONS}/${c.id}`, manager, {
          arthropods: [{ ...tarsalis, num_count: 20 }],
        }),
    );
    expect(p.statusCode, p.body).toBe(201);
    expect(lower.statusCode, lower.body).toBe(422);
    expect(errorOf(lower).code).toBe('pool_count_exceeds_abundance');
    const stored = (await http.get(`${COLLECTIONS}/${c.id}`, manager)).json();
    expect(stored.arthropods.map((r: { num_count: number }) => r.num_count)).toEqual([50]);
  });

  it('a pool drawn while its collection is deleted: no active pool is left under a deleted collection', async () => {
    const c = await collectionOn('2026-07-14');
    const [p, del] = await race(
      'select id from agency where id = 1 for update',
      () => http.post(POOLS, manager, { collection: c.id, ...tarsalis, num_count: 5 }),
      () => http.del(`${COLLECTIONS}/${c.id}`, manager),
    );
    expect(p.statusCode, p.body).toBe(201);
    expect(del.statusCode, del.body).toBe(200);
    const pools = (await http.get(`${POOLS}?query[collection]=${c.id}`, manager)).json();
    expect(pools.count).toBe(0);
    expect(
      (await http.get(`${POOLS}/${p.json().id}`, manager)).json().deactive_date,
    ).not.toBeNull();
  });

  it('a pool edited while a manager deletes it: the edit answers 404, the pool stays deleted', async () => {
    const c = await collectionOn('2026-07-14');
    const p = await created(POOLS, { collection: c.id, ...tarsalis, num_count: 5 });
    // The edit waits for the collection's row, which the blocker holds; the delete does not.
    const [edit, del] = await race(
      `select id from collection where id = ${c.id} for update`,
      () => http.put(`${POOLS}/${p.id}`, manager, { num_count: 6, comments: 'recounted' }),
      () => http.del(`${POOLS}/${p.id}`, manager),
    );
    expect(del.statusCode, del.body).toBe(200);
    expect(edit.statusCode, edit.body).toBe(404);
    const stored = (await http.get(`${POOLS}/${p.id}`, manager)).json();
    expect(stored).toMatchObject({ num_count: 5, comments: null });
    expect(stored.deactive_date).not.toBeNull();
  });

  it('a site code freed and re-taken while another edit of the site is waiting: no two sites hold the code', async () => {
    const codeLock = (code: string) =>
      `select pg_advisory_xact_lock(hashtextextended('trapline:site-code:1:${code}', 0))`;
    const site = makeSite({ active_date: '2024-01-01', deactive_date: '2025-01-01' });
    const a = await created('/v1/site', site);
    const oldCode = site.code as string;
    const newCode = String(Number(oldCode) + 500_000);
    let renamed: Awaited<ReturnType<typeof http.put>> | undefined;
    let other: Awaited<ReturnType<typeof http.post>> | undefined;
    // The first edit (reopening the site) waits on its code's lock; meanwhile the site is given
    // a new code, and another site takes that code from 2026, after the site's end.
    const [reopen] = await race(
      codeLock(oldCode),
      () => http.put(`/v1/site/${a.id}`, manager, { deactive_date: null }),
      async () => {
        renamed = await http.put(`/v1/site/${a.id}`, manager, { code: newCode });
        other = await http.post(
          '/v1/site',
          manager,
          makeSite({ code: newCode, active_date: '2026-01-01' }),
        );
        return other;
      },
    );
    const answers = [reopen.statusCode, renamed?.statusCode, other?.statusCode];
    // Contract §6: a code is in use while a site with it has no deactive_date, or one on/after
    // the other's active_date. However the three requests were answered, no two live sites may
    // hold the new code for overlapping periods.
    const sites = (await http.get(`/v1/site?query[code]=${newCode}`, manager)).json() as {
      rows: Array<{ active_date: string | null; deactive_date: string | null; add_date: string }>;
    };
    const from = (r: (typeof sites.rows)[number]) => r.active_date ?? r.add_date;
    const overlapping = sites.rows.filter((x) =>
      sites.rows.some(
        (y) =>
          x !== y && from(x) <= from(y) && (x.deactive_date === null || x.deactive_date >= from(y)),
      ),
    );
    expect(overlapping, JSON.stringify(answers)).toEqual([]);
    expect(answers).toEqual([200, 200, 409]);
  });

  it('a site edited while a manager deletes it: the edit is applied before the delete, never to a deleted site', async () => {
    const site = makeSite();
    const s = await created('/v1/site', site);
    // The edit (a new end date) waits on its code's lock, which the blocker holds.
    const [edit, del] = await race(
      `select pg_advisory_xact_lock(hashtextextended('trapline:site-code:1:${site.code as string}', 0))`,
      () => http.put(`/v1/site/${s.id}`, manager, { deactive_date: '2026-12-31', name: 'Renamed' }),
      () => http.del(`/v1/site/${s.id}`, manager),
    );
    expect(del.statusCode, del.body).toBe(200);
    const stored = (await http.get(`/v1/site/${s.id}`, manager)).json();
    expect(stored.delete_date).not.toBeNull();
    // An edit answered 200 was made to a live site (its answer shows no delete_date) and is kept;
    // one that came too late is 404 and changed nothing.
    if (edit.statusCode === 200) {
      expect(edit.json().delete_date, edit.body).toBeNull();
      expect(stored.name).toBe('Renamed');
    } else {
      expect(edit.statusCode, edit.body).toBe(404);
      expect(stored.name).toBe(site.name);
    }
  });
  it('a pool edited while another writer moves it to another collection: checked against where it now is, and not moved back', async () => {
    const first = await collectionOn('2026-07-14');
    const second = await created(
      COLLECTIONS,
      makeCollection({
        collection_date: '2026-07-14',
        arthropods: [{ ...tarsalis, num_count: 10 }],
      }),
    );
    const p = await created(POOLS, { collection: first.id, ...tarsalis, num_count: 5 });
    // Another process on the same database moves the pool while the edit waits for the first
    // collection's row (which that process holds while it writes).
    await blocker.query('begin');
    let edit;
    try {
      await blocker.query(`select id from collection where id = ${first.id} for update`);
      edit = http.put(`${POOLS}/${p.id}`, manager, { num_count: 45 });
      expect(await waiting(1)).toBe(true);
      await blocker.query(
        `update pool p set collection = c.id, primary_source = c.id, location = c.location
           from collection c where c.id = ${second.id} and p.id = ${p.id}`,
      );
    } finally {
      await blocker.query('commit');
    }
    const res = await edit;
    // 45 fit the first collection's 50, but not the 10 of the one the pool is now in.
    expect(res.statusCode, res.body).toBe(422);
    expect(errorOf(res).code).toBe('pool_count_exceeds_abundance');
    const stored = (await http.get(`${POOLS}/${p.id}`, manager)).json();
    expect(stored).toMatchObject({ collection: second.id, num_count: 5 });
  });
});
