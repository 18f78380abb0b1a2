import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestRecords, type TestRecords } from '../../helpers/records-app';
import {
  SEX_ID,
  SPECIES_ID,
  TRAP_ID,
  api,
  makeCollection,
  type Api,
} from '../helpers/arthropod-fixtures';

/**
 * A pool carries its collection's date, site, place, trap and year (contract §6), so a collection
 * edit that moves them changes the pool as a client reads it. Tablets pull what changed by
 * `updated` (`query[updated][$gt]`): a pool whose fields changed without its `updated` is never
 * pulled again, and the tablet keeps showing (and checking its tests against) the old date.
 * Look-alikes on purpose: two equal pools of one collection, and an equal pool of a twin
 * collection (same day, trap and place) that is not edited and must not be reported as changed.
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

async function collectionWithTwoPools() {
  const collection = await http.post(
    '/v1/arthropod/collection',
    manager,
    makeCollection({ arthropods: [{ ...tarsalis, num_count: 50 }] }),
  );
  expect(collection.statusCode, collection.body).toBe(201);
  const pools = [];
  for (let i = 0; i < 2; i++) {
    const pool = await http.post('/v1/arthropod/pool', manager, {
      collection: collection.json().id,
      ...tarsalis,
      num_count: 25,
    });
    expect(pool.statusCode, pool.body).toBe(201);
    pools.push(pool.json() as { id: number; updated: string });
  }
  return { id: collection.json().id as number, pools };
}

/** The ids of pools a tablet's pull would receive: `updated` after `since`. */
async function poolsChangedSince(since: string): Promise<number[]> {
  const res = await http.get(
    `/v1/arthropod/pool?pageSize=1000&sort=id&query[updated][$gt]=${encodeURIComponent(since)}`,
    manager,
  );
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { rows: { id: number }[] }).rows.map((r) => r.id);
}

describe('a collection edit that changes what its pools carry', () => {
  it('changes the pools’ updated, so a pull of what changed brings them', async () => {
    const edited = await collectionWithTwoPools();
    const twin = await collectionWithTwoPools();
    const since = [...edited.pools, ...twin.pools]
      .map((p) => p.updated)
      .sort()
      .at(-1)!;
    await new Promise((r) => setTimeout(r, 5));

    const res = await http.put(`/v1/arthropod/collection/${edited.id}`, manager, {
      collection_date: '2026-07-15',
      trap: TRAP_ID.gravid,
    });
    expect(res.statusCode, res.body).toBe(200);

    expect(await poolsChangedSince(since)).toEqual(edited.pools.map((p) => p.id));
    for (const p of edited.pools) {
      const pool = (await http.get(`/v1/arthropod/pool/${p.id}`, manager)).json();
      expect(pool.collection_date).toMatch(/^2026-07-15/);
      expect(pool.trap).toBe(TRAP_ID.gravid);
      expect(pool.updated > since).toBe(true);
    }
  });

  it('leaves the pools’ updated alone when it changes nothing they carry', async () => {
    const edited = await collectionWithTwoPools();
    const since = edited.pools
      .map((p) => p.updated)
      .sort()
      .at(-1)!;
    await new Promise((r) => setTimeout(r, 5));

    const res = await http.put(`/v1/arthropod/collection/${edited.id}`, manager, {
      comments: 'Trap bag torn, count is a minimum',
    });
    expect(res.statusCode, res.body).toBe(200);

    expect(await poolsChangedSince(since)).toEqual([]);
  });

  it('changes the pools’ updated when the date moves them into another year', async () => {
    const edited = await collectionWithTwoPools();
    const since = edited.pools
      .map((p) => p.updated)
      .sort()
      .at(-1)!;
    await new Promise((r) => setTimeout(r, 5));

    const res = await http.put(`/v1/arthropod/collection/${edited.id}`, manager, {
      collection_date: '2027-01-03',
    });
    expect(res.statusCode, res.body).toBe(200);

    expect(await poolsChangedSince(since)).toEqual(edited.pools.map((p) => p.id));
    const pool = (await http.get(`/v1/arthropod/pool/${edited.pools[0].id}`, manager)).json();
    expect(pool.surv_year).toBe(2027);
  });
});
