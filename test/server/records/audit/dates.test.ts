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
} from '../arthropod/arthropod-fixtures';

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
