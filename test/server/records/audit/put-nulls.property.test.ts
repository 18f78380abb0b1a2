import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectionCreate } from '#shared/schemas/collection';
import { errorBody } from '#shared/schemas/error';
import { poolUpdate } from '#shared/schemas/pool';
import { poolTestCreate } from '#shared/schemas/pool-test';
import { siteCreate } from '#shared/schemas/site';
import { buildTestRecords, type TestRecords } from '../../helpers/records-app';
import { makeSite } from '../factories/make-site';
import { SEX_ID, SPECIES_ID, api, makeCollection, type Api } from '../helpers/arthropod-fixtures';

/**
 * Property (contract §6, issue 2 gap 1): a PUT that sends null for any set of a record's fields
 * answers 200 (null cleared an optional field to its default) or a 4xx with the contract's
 * error body (null for a required field), never a 500.
 */

const RUNS = 40;

let t: TestRecords;
let http: Api;
let manager: string;
const ids: Record<string, number> = {};

beforeAll(async () => {
  t = await buildTestRecords();
  http = api(t);
  manager = await t.login('demo-manager');
  const created = async (url: string, body: Record<string, unknown>) => {
    const res = await http.post(url, manager, body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as number;
  };
  ids.site = await created('/v1/site', makeSite({ code: '291001', elevation: 3, comments: 'x' }));
  ids.collection = await created(
    '/v1/arthropod/collection',
    makeCollection({
      comments: 'x',
      lures: [1],
      arthropods: [{ species: SPECIES_ID.cxTarsalis, sex: SEX_ID.fMixed, num_count: 40 }],
    }),
  );
  // A collection no pool is drawn from: clearing its arthropods is allowed, while clearing
  // those of a pooled collection is rightly refused (pool_count_exceeds_abundance).
  ids.unpooledCollection = await created(
    '/v1/arthropod/collection',
    makeCollection({
      comments: 'x',
      lures: [1],
      arthropods: [{ species: SPECIES_ID.cxTarsalis, sex: SEX_ID.fMixed, num_count: 40 }],
    }),
  );
  ids.pool = await created('/v1/arthropod/pool', {
    collection: ids.collection,
    species: SPECIES_ID.cxTarsalis,
    sex: SEX_ID.fMixed,
    num_count: 10,
  });
  ids.poolTest = await created('/v1/arthropod/pool/test', {
    pool: ids.pool,
    method: 1,
    target: 1,
    status: 2,
    test_agency: 3,
    test_date: '2026-07-20',
    value: 1.5,
  });
}, 60_000);
afterAll(async () => t?.close());

const RESOURCES = [
  ['site', '/v1/site', Object.keys(siteCreate.shape)],
  ['collection', '/v1/arthropod/collection', Object.keys(collectionCreate.shape)],
  ['pool', '/v1/arthropod/pool', Object.keys(poolUpdate.shape)],
  ['poolTest', '/v1/arthropod/pool/test', Object.keys(poolTestCreate.shape)],
] as const;

describe('PUT with null for fields', () => {
  it.each(RESOURCES)(
    '%s answers 200 or a 4xx with the error body, never a 500',
    async (name, url, keys) => {
      await fc.assert(
        fc.asyncProperty(fc.subarray([...keys], { minLength: 1 }), async (nulled) => {
          const body = Object.fromEntries(nulled.map((k) => [k, null]));
          const res = await http.put(`${url}/${ids[name]}`, manager, body);
          expect(res.statusCode, `${JSON.stringify(body)} → ${res.body}`).toBeLessThan(500);
          if (res.statusCode !== 200) {
            expect(res.statusCode).toBeGreaterThanOrEqual(400);
            expect(errorBody.safeParse(res.json()).success, res.body).toBe(true);
          }
        }),
        { numRuns: RUNS },
      );
    },
    120_000,
  );

  it.each(RESOURCES)('%s answers 200 when every optional field is null', async (name, url) => {
    const optional: Record<string, string[]> = {
      site: ['active_date', 'deactive_date', 'address_1', 'address_2', 'city', 'comments'],
      collection: ['comments', 'identified_by', 'trap_problem_bit', 'lures', 'arthropods'],
      pool: ['comments', 'primary_source_bit', 'pool_num'],
      poolTest: ['value', 'comments'],
    };
    const more: Record<string, string[]> = {
      site: ['elevation', 'postal_code', 'region', 'revision_comments', 'site_population'],
      collection: ['collection_date_date_only', 'collection_num', 'site', 'location', 'surv_year'],
      pool: ['agency', 'user'],
      poolTest: ['agency', 'user'],
    };
    const body = Object.fromEntries([...optional[name], ...more[name]].map((k) => [k, null]));
    const id = name === 'collection' ? ids.unpooledCollection : ids[name];
    const res = await http.put(`${url}/${id}`, manager, body);
    expect(res.statusCode, res.body).toBe(200);
  });
});
