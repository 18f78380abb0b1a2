import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBody } from '#shared/schemas/error';
import { buildTestRecords, type TestRecords } from '../../helpers/records-app';
import { makeSite } from '../factories/make-site';
import {
  SEX_ID,
  SPECIES_ID,
  api,
  errorOf,
  insertSite,
  makeCollection,
  type Api,
} from '../helpers/arthropod-fixtures';

/** Issue 2, gaps 1 and 2: PUT with nulls, and PUT of a record exactly as GET returned it. */

const LURE = 1;
const TEST = { method: 1, target: 1, status: 2, test_agency: 3 };

let t: TestRecords;
let http: Api;
let manager: string;
let site: Record<string, unknown>;
let collection: Record<string, unknown>;
let pool: Record<string, unknown>;
let poolTest: Record<string, unknown>;

beforeAll(async () => {
  t = await buildTestRecords();
  http = api(t);
  manager = await t.login('demo-manager');
  const s = await http.post(
    '/v1/site',
    manager,
    makeSite({ code: '290001', elevation: 12.5, comments: 'levee', site_land_usage: [1] }),
  );
  expect(s.statusCode, s.body).toBe(201);
  site = s.json();
  const c = await http.post(
    '/v1/arthropod/collection',
    manager,
    makeCollection({
      site: await insertSite(t, 1),
      comments: 'windy',
      lures: [LURE],
      arthropods: [{ species: SPECIES_ID.cxTarsalis, sex: SEX_ID.fMixed, num_count: 40 }],
    }),
  );
  expect(c.statusCode, c.body).toBe(201);
  collection = c.json();
  const p = await http.post('/v1/arthropod/pool', manager, {
    collection: collection.id,
    species: SPECIES_ID.cxTarsalis,
    sex: SEX_ID.fMixed,
    num_count: 10,
    comments: 'first',
  });
  expect(p.statusCode, p.body).toBe(201);
  pool = p.json();
  const pt = await http.post('/v1/arthropod/pool/test', manager, {
    pool: pool.id,
    test_date: '2026-07-20',
    value: 31.5,
    ...TEST,
  });
  expect(pt.statusCode, pt.body).toBe(201);
  poolTest = pt.json();
}, 60_000);
afterAll(async () => t?.close());

const RESOURCES = [
  ['site', '/v1/site', () => site],
  ['collection', '/v1/arthropod/collection', () => collection],
  ['pool', '/v1/arthropod/pool', () => pool],
  ['pool test', '/v1/arthropod/pool/test', () => poolTest],
] as const;

/** Every reference each GET can populate. */
const POPULATE: Record<string, string[]> = {
  site: ['user', 'agency', 'coordinate_precision', 'original_location', 'region'],
  collection: ['agency', 'user', 'trap', 'site', 'location', 'arthropods', 'pools', 'lures'],
  pool: ['agency', 'user', 'collection', 'site', 'location', 'species', 'sex', 'trap', 'lures'],
  'pool test': ['pool', 'method', 'target', 'status', 'test_agency', 'agency', 'user'],
};
const populate = (name: string) => POPULATE[name].map((p) => `populate[]=${p}`).join('&');

describe('PUT with null for an optional field', () => {
  it('clears trap_problem_bit of a collection to its default false', async () => {
    await http.put(`/v1/arthropod/collection/${collection.id}`, manager, {
      trap_problem_bit: true,
    });
    const res = await http.put(`/v1/arthropod/collection/${collection.id}`, manager, {
      trap_problem_bit: null,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().trap_problem_bit).toBe(false);
  });
});

describe('a record read with GET can be PUT back unchanged', () => {
  it.each(RESOURCES)('%s', async (_name, url, record) => {
    const read = await http.get(`${url}/${record().id}`, manager);
    expect(read.statusCode, read.body).toBe(200);
    const res = await http.put(`${url}/${record().id}`, manager, read.json());
    expect(res.statusCode, res.body).toBe(200);
    const after = await http.get(`${url}/${record().id}`, manager);
    const { updated: _u1, ...before } = read.json();
    const { updated: _u2, ...now } = after.json();
    expect(now).toEqual(before);
  });

  it.each(RESOURCES)('%s, with every reference populated', async (name, url, record) => {
    const read = await http.get(`${url}/${record().id}?${populate(name)}`, manager);
    expect(read.statusCode, read.body).toBe(200);
    const res = await http.put(`${url}/${record().id}`, manager, read.json());
    expect(res.statusCode, res.body).toBe(200);
  });

  it('still refuses response-only fields on POST', async () => {
    const res = await http.post(
      '/v1/arthropod/collection',
      manager,
      makeCollection({ id: 5, lures: [{ id: 1, lure: LURE }] }),
    );
    expect(res.statusCode).toBe(422);
    expect(errorBody.safeParse(res.json()).success).toBe(true);
    expect(errorOf(res).fields).toEqual(
      expect.arrayContaining([
        { path: '(body)', message: 'Unknown field: id' },
        { path: 'lures.0', message: expect.any(String) },
      ]),
    );
  });
});
