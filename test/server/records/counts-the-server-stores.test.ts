import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestRecords, type TestRecords } from '../helpers/records-app';
import {
  SEX_ID,
  SPECIES_ID,
  api,
  errorOf,
  insertSite,
  makeCollection,
  tableCounts,
  type Api,
} from './helpers/arthropod-fixtures';

/**
 * The service's side of test/client/db/counts-the-server-stores.test.ts: a count larger than
 * PostgreSQL's `int` is a 422 naming the field with "Must be at most 2147483647", the words the
 * tablet now shows at save time (the shared schemas carry the bound for both).
 */
const COLLECTIONS = '/v1/arthropod/collection';
const POOLS = '/v1/arthropod/pool';
const TOO_MANY = 'Must be at most 2147483647';

let t: TestRecords;
let http: Api;
let tech: string;
beforeAll(async () => {
  t = await buildTestRecords();
  http = api(t);
  tech = await t.login('demo-tech');
});
afterAll(async () => {
  await t?.close();
});

describe('counts beyond what the service stores', () => {
  it('refuses an abundance count over 2147483647 with 422 naming the row, writing nothing', async () => {
    const site = await insertSite(t, 1);
    const before = await tableCounts(t);
    const res = await http.post(
      COLLECTIONS,
      tech,
      makeCollection({
        site,
        location: undefined,
        arthropods: [
          { species: SPECIES_ID.cxTarsalis, sex: SEX_ID.male, num_count: 120 },
          { species: SPECIES_ID.cxTarsalis, sex: SEX_ID.fMixed, num_count: 3_000_000_000 },
        ],
      }),
    );
    expect(res.statusCode, res.body).toBe(422);
    expect(errorOf(res).fields).toContainEqual({
      path: 'arthropods.1.num_count',
      message: TOO_MANY,
    });
    expect(await tableCounts(t)).toEqual(before);
  });

  it('refuses trap nights and number of traps over 2147483647, on create and on edit', async () => {
    const res = await http.post(
      COLLECTIONS,
      tech,
      makeCollection({ num_trap: 2_147_483_648, trap_nights: 1e10 }),
    );
    expect(res.statusCode, res.body).toBe(422);
    expect(errorOf(res).fields).toEqual(
      expect.arrayContaining([
        { path: 'num_trap', message: TOO_MANY },
        { path: 'trap_nights', message: TOO_MANY },
      ]),
    );
    const made = await http.post(COLLECTIONS, tech, makeCollection());
    expect(made.statusCode, made.body).toBe(201);
    const { id } = made.json() as { id: number };
    const put = await http.put(`${COLLECTIONS}/${id}`, tech, { trap_nights: 2_147_483_648 });
    expect(put.statusCode, put.body).toBe(422);
    expect(errorOf(put).fields).toContainEqual({ path: 'trap_nights', message: TOO_MANY });
  });

  it('refuses a pool count over 2147483647 with the same words', async () => {
    const made = await http.post(
      COLLECTIONS,
      tech,
      makeCollection({
        arthropods: [
          { species: SPECIES_ID.cxTarsalis, sex: SEX_ID.male, num_count: 2_147_483_647 },
        ],
      }),
    );
    expect(made.statusCode, made.body).toBe(201);
    const { id } = made.json() as { id: number };
    const res = await http.post(POOLS, tech, {
      collection: id,
      species: SPECIES_ID.cxTarsalis,
      sex: SEX_ID.male,
      num_count: 2_147_483_648,
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(errorOf(res).fields).toContainEqual({ path: 'num_count', message: TOO_MANY });
  });
});
