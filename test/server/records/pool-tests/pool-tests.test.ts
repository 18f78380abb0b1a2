import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collection, listOf, pool, poolTest } from '../../../../src/shared';
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

const TESTS = '/v1/arthropod/pool/test';
const METHOD = { rtPcr: 1, ramp: 2, vecTest: 3 };
const STATUS = { confirmed: 1, negative: 2, pending: 3 };
const WNV = 1;
const LAB = 3;

let t: TestRecords;
let http: Api;
let manager: string;
let tech: string;
let neighbor: string;

// A clock that moves one second per reading, so every write has a distinct add_date.
let tick = 0;
const clock = () => new Date(Date.UTC(2026, 7, 1) + tick++ * 1000);

beforeAll(async () => {
  t = await buildTestRecords({ now: clock });
  http = api(t);
  [manager, tech, neighbor] = await Promise.all(
    ['demo-manager', 'demo-tech', 'neighbor-manager'].map((u) => t.login(u)),
  );
});
afterAll(async () => t?.close());

async function makePool(token = manager, collectionDate = '2026-07-14') {
  const c = await http.post(
    '/v1/arthropod/collection',
    token,
    makeCollection({
      collection_date: collectionDate,
      arthropods: [{ species: SPECIES_ID.cxTarsalis, sex: SEX_ID.fMixed, num_count: 50 }],
    }),
  );
  expect(c.statusCode, c.body).toBe(201);
  const p = await http.post('/v1/arthropod/pool', token, {
    collection: c.json().id,
    species: SPECIES_ID.cxTarsalis,
    sex: SEX_ID.fMixed,
    num_count: 50,
  });
  expect(p.statusCode, p.body).toBe(201);
  return p.json() as { id: number };
}

const testBody = (pool: number, over: Record<string, unknown> = {}) => ({
  pool,
  method: METHOD.rtPcr,
  target: WNV,
  status: STATUS.negative,
  test_date: '2026-07-20',
  test_agency: LAB,
  ...over,
});

async function addTest(pool: number, over: Record<string, unknown> = {}, token = manager) {
  const res = await http.post(TESTS, token, testBody(pool, over));
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

describe('recording a pool test', () => {
  it('returns exactly the contract’s fields, id first', async () => {
    const p = await makePool();
    const res = await http.post(TESTS, tech, testBody(p.id, { value: 31.2, comments: 'plate 4' }));
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(Object.keys(body)).toEqual([
      'id',
      'pool',
      'method',
      'target',
      'status',
      'test_date',
      'test_agency',
      'value',
      'comments',
      'user',
      'agency',
      'add_date',
      'updated',
      'deactive_date',
    ]);
    expect(body).toMatchObject({
      pool: p.id,
      method: METHOD.rtPcr,
      target: WNV,
      status: STATUS.negative,
      test_date: '2026-07-20T00:00:00.000Z',
      test_agency: LAB,
      value: 31.2,
      comments: 'plate 4',
      user: 2,
      agency: 1,
      deactive_date: null,
    });
  });

  it('accepts any existing agency as the testing agency, and refuses an unknown one', async () => {
    const p = await makePool();
    expect((await http.post(TESTS, manager, testBody(p.id, { test_agency: 2 }))).statusCode).toBe(
      201,
    );
    const res = await http.post(TESTS, manager, testBody(p.id, { test_agency: 999 }));
    expect(res.statusCode).toBe(422);
    expect(errorOf(res).fields).toEqual([{ path: 'test_agency', message: expect.any(String) }]);
  });

  it('requires pool, method, target, status, test_date and test_agency', async () => {
    const res = await http.post(TESTS, manager, {});
    expect(res.statusCode).toBe(422);
    expect(
      errorOf(res)
        .fields?.map((f) => f.path)
        .sort(),
    ).toEqual(['method', 'pool', 'status', 'target', 'test_agency', 'test_date']);
  });

  it('refuses a test dated before the pool’s collection (422 test_before_collection)', async () => {
    const p = await makePool(manager, '2026-07-14T18:00:00-07:00');
    const before = await tableCounts(t);
    const res = await http.post(TESTS, manager, testBody(p.id, { test_date: '2026-07-13' }));
    expect(res.statusCode).toBe(422);
    expect(errorOf(res).code).toBe('test_before_collection');
    expect(errorOf(res).fields?.[0].path).toBe('test_date');
    expect(await tableCounts(t)).toEqual(before);
    expect(
      (await http.post(TESTS, manager, testBody(p.id, { test_date: '2026-07-15' }))).statusCode,
    ).toBe(201);
    const test = await addTest(p.id, { test_date: '2026-07-16' });
    const moved = await http.put(`${TESTS}/${test.id}`, manager, { test_date: '2026-07-01' });
    expect(moved.statusCode).toBe(422);
    expect(errorOf(moved).code).toBe('test_before_collection');
  });

  it('refuses moving a collection’s date past a test of its pools', async () => {
    const p = await makePool(manager, '2026-07-10');
    await addTest(p.id, { test_date: '2026-07-12' });
    const c = (await http.get(`/v1/arthropod/pool/${p.id}`, manager)).json().collection;
    const late = await http.put(`/v1/arthropod/collection/${c}`, manager, {
      collection_date: '2026-07-13',
    });
    expect(late.statusCode).toBe(422);
    expect(errorOf(late).code).toBe('test_before_collection');
    expect(errorOf(late).fields?.[0].path).toBe('collection_date');
    const ok = await http.put(`/v1/arthropod/collection/${c}`, manager, {
      collection_date: '2026-07-12',
    });
    expect(ok.statusCode).toBe(200);
  });

  it('refuses unknown lookups and a pool of another agency, naming each field', async () => {
    const theirs = await makePool(neighbor);
    const res = await http.post(
      TESTS,
      manager,
      testBody(theirs.id, { method: 99, target: 99, status: 99 }),
    );
    expect(res.statusCode).toBe(422);
    expect(
      errorOf(res)
        .fields?.map((f) => f.path)
        .sort(),
    ).toEqual(['method', 'pool', 'status', 'target']);
  });
});

describe('a pool’s definitive result', () => {
  it('prefers the most sensitive method over a later test', async () => {
    const p = await makePool();
    const pcr = await addTest(p.id, {
      method: METHOD.rtPcr,
      status: STATUS.confirmed,
      test_date: '2026-07-18',
    });
    await addTest(p.id, {
      method: METHOD.vecTest,
      status: STATUS.negative,
      test_date: '2026-07-25',
    });
    await addTest(p.id, { method: METHOD.ramp, status: STATUS.negative, test_date: '2026-07-26' });
    const pool = (await http.get(`/v1/arthropod/pool/${p.id}`, manager)).json();
    expect(pool.result).toMatchObject({
      id: pcr.id,
      method: { id: METHOD.rtPcr, acronym: 'RT-PCR', sensitivity: 3 },
      status: { id: STATUS.confirmed, name: 'Confirmed' },
      agency: { id: LAB },
    });
  });

  it('then the latest test date, then the latest entry', async () => {
    const p = await makePool();
    await addTest(p.id, { test_date: '2026-07-18', status: STATUS.pending });
    const later = await addTest(p.id, { test_date: '2026-07-22', status: STATUS.negative });
    const earlierEntry = await addTest(p.id, { test_date: '2026-07-19' });
    expect((await http.get(`/v1/arthropod/pool/${p.id}`, manager)).json().result.id).toBe(later.id);
    expect(earlierEntry.id).toBeGreaterThan(later.id);

    const sameDay = await addTest(p.id, { test_date: '2026-07-22', status: STATUS.confirmed });
    expect(Date.parse(sameDay.add_date)).toBeGreaterThan(Date.parse(later.add_date));
    const pool = (await http.get(`/v1/arthropod/pool/${p.id}`, manager)).json();
    expect(pool.result).toMatchObject({ id: sameDay.id, status: { name: 'Confirmed' } });
    const listed = (await http.get(`/v1/arthropod/pool?query[id]=${p.id}`, manager)).json();
    expect(listed.rows[0].result.id).toBe(sameDay.id);
  });

  it('is null before any test', async () => {
    const p = await makePool();
    expect((await http.get(`/v1/arthropod/pool/${p.id}`, manager)).json().result).toBeNull();
  });
});

describe('reading and updating pool tests', () => {
  it('populates every contract name', async () => {
    const p = await makePool();
    const test = await addTest(p.id);
    const names = ['pool', 'method', 'target', 'status', 'test_agency', 'agency', 'user'];
    const r = (
      await http.get(
        `${TESTS}/${test.id}?${names.map((n) => `populate[]=${n}`).join('&')}`,
        manager,
      )
    ).json();
    expect(Object.keys(r)[0]).toBe('id');
    expect(r.pool).toMatchObject({ id: p.id, num_count: 50 });
    expect(r.method).toEqual({ id: 1, name: 'RT-PCR', acronym: 'RT-PCR', sensitivity: 3 });
    expect(r.target).toMatchObject({ id: WNV, acronym: 'WNV' });
    expect(Object.keys(r.target).sort()).toEqual(['acronym', 'icd_10', 'id', 'name', 'vector']);
    expect(r.status).toEqual({
      id: STATUS.negative,
      name: 'Negative',
      description: 'Target not detected',
    });
    expect(r.test_agency).toMatchObject({ id: LAB, code: 'ARBOLAB' });
    expect(r.agency).toMatchObject({ id: 1, code: 'DVCD' });
    expect(r.user).toEqual({ id: 1, username: 'demo-manager', name: 'Dana Whitfield' });
    expect((await http.get(`${TESTS}/${test.id}?populate[]=species`, manager)).statusCode).toBe(
      422,
    );
  });

  it('lists with and without a trailing slash, only the caller’s agency', async () => {
    const p = await makePool();
    await addTest(p.id, { comments: 'listing A' });
    const theirs = await makePool(neighbor);
    await addTest(theirs.id, { comments: 'listing A' }, neighbor);
    for (const url of [
      `${TESTS}?search=listing`,
      `${TESTS}/?search=listing&searchFields[]=comments`,
    ]) {
      const res = (await http.get(url, manager)).json();
      expect(res.count).toBe(1);
      expect(res.rows[0].pool).toBe(p.id);
    }
  });

  it('keeps unsent fields on PUT, clears with null, and lets only the author or a manager edit', async () => {
    const p = await makePool();
    const test = await addTest(p.id, { value: 30, comments: 'first run' }, tech);
    const res = await http.put(`${TESTS}/${test.id}`, tech, {
      status: STATUS.confirmed,
      value: null,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: STATUS.confirmed,
      value: null,
      comments: 'first run',
      test_date: test.test_date,
    });
    expect(Date.parse(res.json().updated)).toBeGreaterThan(Date.parse(test.updated));
    const managers = await addTest(p.id);
    expect((await http.put(`${TESTS}/${managers.id}`, tech, { comments: 'x' })).statusCode).toBe(
      403,
    );
    expect(
      (await http.put(`${TESTS}/${test.id}`, manager, { comments: 'reviewed' })).statusCode,
    ).toBe(200);
    expect((await http.put(`${TESTS}/${test.id}`, manager, { method: null })).statusCode).toBe(422);
  });

  it('answers 404 for another agency’s pool test', async () => {
    const theirs = await addTest((await makePool(neighbor)).id, {}, neighbor);
    for (const res of [
      await http.get(`${TESTS}/${theirs.id}`, manager),
      await http.put(`${TESTS}/${theirs.id}`, manager, { comments: 'x' }),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(errorOf(res).code).toBe('not_found');
    }
  });
});

describe('what the app reads', () => {
  it('parses every record, list and populated record with the shared schemas', async () => {
    const p = await makePool();
    const test = await addTest(p.id);
    const c = (await http.get(`/v1/arthropod/pool/${p.id}`, manager)).json().collection;
    const all = (names: string[]) => names.map((n) => `populate[]=${n}`).join('&');
    expect(
      collection.safeParse((await http.get(`/v1/arthropod/collection/${c}`, manager)).json())
        .success,
    ).toBe(true);
    const populatedCollection = await http.get(
      `/v1/arthropod/collection/${c}?${all(['agency', 'user', 'trap', 'location', 'arthropods', 'pools', 'lures'])}`,
      manager,
    );
    expect(collection.safeParse(populatedCollection.json()).error).toBeUndefined();
    const pools = await http.get(
      `/v1/arthropod/pool?${all(['species', 'sex', 'test', 'status'])}`,
      manager,
    );
    expect(listOf(pool).safeParse(pools.json()).error).toBeUndefined();
    const tests = await http.get(
      `${TESTS}?${all(['pool', 'method', 'target', 'status'])}`,
      manager,
    );
    expect(listOf(poolTest).safeParse(tests.json()).error).toBeUndefined();
    expect(poolTest.safeParse(test).success).toBe(true);
    const collections = await http.get('/v1/arthropod/collection', manager);
    expect(listOf(collection).safeParse(collections.json()).error).toBeUndefined();
  });
});
