import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestRecords, type TestRecords } from '../../helpers/records-app';
import {
  SEX_ID,
  SPECIES_ID,
  api,
  errorOf,
  makeCollection,
  type Api,
} from '../helpers/arthropod-fixtures';

/**
 * Contract §6: a pool names a collection, or stands alone with `site, collection_date, trap`. A
 * PUT that takes a pool out of its collection must leave it complete: the fuzz soak found a pool
 * of a site-less collection PUT with `collection: null` answered 200 and left with no collection
 * and no site, a record no create could make.
 */
let t: TestRecords;
let http: Api;
let manager: string;

beforeAll(async () => {
  t = await buildTestRecords();
  http = api(t);
  manager = await t.login('demo-manager');
}, 180_000);
afterAll(async () => t?.close());

const tarsalis = { species: SPECIES_ID.cxTarsalis, sex: SEX_ID.fMixed };

describe('a pool taken out of its collection', () => {
  it('is refused when nothing would say where it was caught, naming what is missing, and stays as it was', async () => {
    // A collection at a place of its own: no site.
    const collection = await http.post(
      '/v1/arthropod/collection',
      manager,
      makeCollection({ site: undefined, arthropods: [{ ...tarsalis, num_count: 10 }] }),
    );
    expect(collection.statusCode, collection.body).toBe(201);
    const pool = await http.post('/v1/arthropod/pool', manager, {
      collection: collection.json().id,
      ...tarsalis,
      num_count: 5,
    });
    expect(pool.statusCode, pool.body).toBe(201);
    const url = `/v1/arthropod/pool/${pool.json().id}`;
    const before = (await http.get(url, manager)).json();

    const res = await http.put(url, manager, { collection: null });
    expect(res.statusCode, res.body).toBe(422);
    expect(errorOf(res).fields?.map((f) => f.path)).toEqual(['site']);
    expect((await http.get(url, manager)).json()).toEqual(before);
  });
});
