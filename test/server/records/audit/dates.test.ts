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
  tableCounts,
  type Api,
} from '../helpers/arthropod-fixtures';

/** Issue 2 gaps 4 and 7: dates the database cannot store, and the test-date rule across zones. */

/** A valid ISO date-time that is in year 10000 in UTC: PostgreSQL cannot store it. */
const BEYOND = '9999-12-31T23:00:00-12:00';
const TEST = { method: 1, target: 1, status: 2, test_agency: 3 };

let t: TestRecords;
let http: Api;
let manager: string;
let site: number;

beforeAll(async () => {
  t = await buildTestRecords();
  http = api(t);
  manager = await t.login('demo-manager');
  site = await insertSite(t, 1);
}, 60_000);
afterAll(async () => t?.close());

async function makePool(collectionDate: string) {
  const c = await http.post(
    '/v1/arthropod/collection',
    manager,
    makeCollection({
      collection_date: collectionDate,
      arthropods: [{ species: SPECIES_ID.cxTarsalis, sex: SEX_ID.fMixed, num_count: 50 }],
    }),
  );
  expect(c.statusCode, c.body).toBe(201);
  const p = await http.post('/v1/arthropod/pool', manager, {
    collection: c.json().id,
    species: SPECIES_ID.cxTarsalis,
    sex: SEX_ID.fMixed,
    num_count: 5,
  });
  expect(p.statusCode, p.body).toBe(201);
  return { collection: c.json().id as number, pool: p.json().id as number };
}

function expect422Naming(res: { statusCode: number; body: string }, path: string) {
  expect(res.statusCode, res.body).toBe(422);
  expect(errorOf(res as never).fields).toEqual([{ path, message: expect.stringMatching(/year/) }]);
}

describe('a date the database cannot store', () => {
  it('answers 422 naming collection_date on collection create and writes nothing', async () => {
    const before = await tableCounts(t);
    const res = await http.post(
      '/v1/arthropod/collection',
      manager,
      makeCollection({ collection_date: BEYOND }),
    );
    expect422Naming(res, 'collection_date');
    expect(await tableCounts(t)).toEqual(before);
  });

  it('answers 422 naming collection_date on collection update', async () => {
    const { collection } = await makePool('2026-07-14');
    const res = await http.put(`/v1/arthropod/collection/${collection}`, manager, {
      collection_date: BEYOND,
    });
    expect422Naming(res, 'collection_date');
  });

  it('answers 422 naming collection_date on pool create and update', async () => {
    const body = {
      site,
      trap: TRAP_ID.co2,
      primary_source_bit: true,
      species: SPECIES_ID.cxTarsalis,
      sex: SEX_ID.fMixed,
      num_count: 3,
    };
    expect422Naming(
      await http.post('/v1/arthropod/pool', manager, { ...body, collection_date: BEYOND }),
      'collection_date',
    );
    const p = await http.post('/v1/arthropod/pool', manager, {
      ...body,
      collection_date: '2026-07-01',
    });
    expect(p.statusCode, p.body).toBe(201);
    expect422Naming(
      await http.put(`/v1/arthropod/pool/${p.json().id}`, manager, { collection_date: BEYOND }),
      'collection_date',
    );
  });

  it('answers 422 naming test_date on pool test create and update', async () => {
    const { pool } = await makePool('2026-07-14');
    expect422Naming(
      await http.post('/v1/arthropod/pool/test', manager, { pool, test_date: BEYOND, ...TEST }),
      'test_date',
    );
    const pt = await http.post('/v1/arthropod/pool/test', manager, {
      pool,
      test_date: '2026-07-20',
      ...TEST,
    });
    expect(pt.statusCode, pt.body).toBe(201);
    expect422Naming(
      await http.put(`/v1/arthropod/pool/test/${pt.json().id}`, manager, { test_date: BEYOND }),
      'test_date',
    );
  });
});

describe('the test-date rule across time zones', () => {
  // 18:00 PDT on 14 July is 01:00 UTC on 15 July; at UTC−12 it is still 14 July.
  const EVENING_PDT = '2026-07-14T18:00:00-07:00';

  it('accepts a test dated the same local day as an evening collection', async () => {
    const { pool } = await makePool(EVENING_PDT);
    const res = await http.post('/v1/arthropod/pool/test', manager, {
      pool,
      test_date: '2026-07-14',
      ...TEST,
    });
    expect(res.statusCode, res.body).toBe(201);
  });

  it('refuses a test dated the day before in every zone', async () => {
    const { pool } = await makePool(EVENING_PDT);
    const res = await http.post('/v1/arthropod/pool/test', manager, {
      pool,
      test_date: '2026-07-13',
      ...TEST,
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(errorOf(res)).toMatchObject({
      code: 'test_before_collection',
      fields: [{ path: 'test_date', message: expect.stringContaining('2026-07-14') }],
    });
  });

  it('accepts a test at UTC+14 on the day of a collection made at 23:59 UTC−12', async () => {
    // 23:59 at UTC−12 on 14 July is 11:59 UTC on 15 July and 01:59 on 16 July at UTC+14.
    const { pool } = await makePool('2026-07-14T23:59:00-12:00');
    const sameDay = await http.post('/v1/arthropod/pool/test', manager, {
      pool,
      test_date: '2026-07-14T08:00:00+14:00',
      ...TEST,
    });
    expect(sameDay.statusCode, sameDay.body).toBe(201);
    const dayBefore = await http.post('/v1/arthropod/pool/test', manager, {
      pool,
      test_date: '2026-07-13T23:00:00+14:00',
      ...TEST,
    });
    expect(dayBefore.statusCode, dayBefore.body).toBe(422);
  });

  it('keeps a date-only collection on its written day', async () => {
    const { pool } = await makePool('2026-07-14');
    const before = await http.post('/v1/arthropod/pool/test', manager, {
      pool,
      test_date: '2026-07-13',
      ...TEST,
    });
    expect(before.statusCode, before.body).toBe(422);
    const same = await http.post('/v1/arthropod/pool/test', manager, {
      pool,
      test_date: '2026-07-14',
      ...TEST,
    });
    expect(same.statusCode, same.body).toBe(201);
  });

  it('applies the same bound when a collection moves past its tests', async () => {
    const { collection, pool } = await makePool('2026-07-10');
    const pt = await http.post('/v1/arthropod/pool/test', manager, {
      pool,
      test_date: '2026-07-14',
      ...TEST,
    });
    expect(pt.statusCode, pt.body).toBe(201);
    const evening = await http.put(`/v1/arthropod/collection/${collection}`, manager, {
      collection_date: EVENING_PDT,
    });
    expect(evening.statusCode, evening.body).toBe(200);
    const nextDay = await http.put(`/v1/arthropod/collection/${collection}`, manager, {
      collection_date: '2026-07-15',
    });
    expect(nextDay.statusCode, nextDay.body).toBe(422);
    expect(errorOf(nextDay).code).toBe('test_before_collection');
  });
});
