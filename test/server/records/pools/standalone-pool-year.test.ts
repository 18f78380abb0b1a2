import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestRecords, type TestRecords } from '../../helpers/records-app';
import {
  SEX_ID,
  SPECIES_ID,
  TRAP_ID,
  api,
  insertSite,
  type Api,
} from '../helpers/arthropod-fixtures';

/**
 * A pool that names no collection takes its survey year from its own collection_date (as on
 * create): re-dated into another season, it belongs to that season's reports and numbering.
 */
const POOLS = '/v1/arthropod/pool';

let t: TestRecords;
let http: Api;
let manager: string;

beforeAll(async () => {
  t = await buildTestRecords();
  http = api(t);
  manager = await t.login('demo-manager');
});
afterAll(async () => t?.close());

describe('a standalone pool re-dated into another season', () => {
  it('moves to that season’s survey year', async () => {
    const site = await insertSite(t, 1);
    const made = await http.post(POOLS, manager, {
      site,
      collection_date: '2025-07-14',
      trap: TRAP_ID.co2,
      primary_source_bit: true,
      species: SPECIES_ID.cxTarsalis,
      sex: SEX_ID.fUnfed,
      num_count: 3,
    });
    expect(made.statusCode, made.body).toBe(201);
    const pool = made.json() as { id: number; surv_year: number; collection: number | null };
    expect(pool).toMatchObject({ surv_year: 2025, collection: null });

    const moved = await http.put(`${POOLS}/${pool.id}`, manager, { collection_date: '2026-07-14' });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({ surv_year: 2026 });
    // What a year's list shows.
    const of2025 = (await http.get(`${POOLS}?query[surv_year]=2025`, manager)).json() as {
      rows: Array<{ id: number }>;
    };
    expect(of2025.rows.map((r) => r.id)).not.toContain(pool.id);
  });
});

describe('a standalone pool re-dated into a year where its number is taken', () => {
  it('is refused with 409 pool_num_taken, as a collection moving its pools is: its label keeps its number', async () => {
    const site = await insertSite(t, 1);
    const body = (collection_date: string, pool_num: number) => ({
      site,
      collection_date,
      trap: TRAP_ID.co2,
      primary_source_bit: true,
      species: SPECIES_ID.cxTarsalis,
      sex: SEX_ID.fUnfed,
      num_count: 1,
      pool_num,
    });
    const there = await http.post(POOLS, manager, body('2030-07-14', 7));
    expect(there.statusCode, there.body).toBe(201);
    const here = await http.post(POOLS, manager, body('2029-07-14', 7));
    expect(here.statusCode, here.body).toBe(201);
    const id = (here.json() as { id: number }).id;
    const before = (await http.get(`${POOLS}/${id}`, manager)).json();
    for (const change of [
      { collection_date: '2030-07-15' },
      { collection_date: '2030-07-15', pool_num: 7 },
    ]) {
      const res = await http.put(`${POOLS}/${id}`, manager, change);
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json().error.code).toBe('pool_num_taken');
    }
    expect((await http.get(`${POOLS}/${id}`, manager)).json()).toEqual(before);
    // Renumbered in the same request, it moves.
    const moved = await http.put(`${POOLS}/${id}`, manager, {
      collection_date: '2030-07-15',
      pool_num: 8,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({ surv_year: 2030, pool_num: 8 });
  });
});
