import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestRecords, type TestRecords } from '../helpers/records-app';
import { makeSite } from './factories/make-site';
import {
  SEX_ID,
  SPECIES_ID,
  TRAP_ID,
  api,
  makeCollection,
  type Api,
} from './helpers/arthropod-fixtures';

/**
 * Contract review (§6): edits that a technician or manager makes to records already filed, with
 * look-alike records around them on purpose.
 */

const COLLECTIONS = '/v1/arthropod/collection';
const POOLS = '/v1/arthropod/pool';

let t: TestRecords;
let http: Api;
let manager: string;
let tech: string;

beforeAll(async () => {
  t = await buildTestRecords();
  http = api(t);
  manager = await t.login('demo-manager');
  tech = await t.login('demo-tech');
}, 60_000);
afterAll(async () => t?.close());

const counted = [{ species: SPECIES_ID.cxTarsalis, sex: SEX_ID.fMixed, num_count: 20 }];

async function collect(over: Record<string, unknown>) {
  const res = await http.post(COLLECTIONS, tech, makeCollection({ arthropods: counted, ...over }));
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as Record<string, unknown> & { id: number };
}

describe('a collection re-dated across New Year in its own time zone', () => {
  // 20:00 on New Year's Eve in California is already the 1st of January in UTC: the survey year
  // is the year the technician wrote (contract §6), 2040, not the UTC year.
  it('takes the new date’s survey year when moved from New Year’s Eve to New Year’s Day', async () => {
    const c = await collect({ collection_date: '2040-12-31T20:00:00-08:00' });
    expect(c.surv_year).toBe(2040);
    const pool = await http.post(POOLS, tech, {
      collection: c.id,
      species: SPECIES_ID.cxTarsalis,
      sex: SEX_ID.fMixed,
      num_count: 5,
    });
    expect(pool.statusCode, pool.body).toBe(201);

    const res = await http.put(`${COLLECTIONS}/${c.id}`, tech, {
      collection_date: '2041-01-01T06:00:00-08:00',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().surv_year).toBe(2041);
    expect((await http.get(`${COLLECTIONS}/${c.id}`, tech)).json().surv_year).toBe(2041);
    expect((await http.get(`${POOLS}/${pool.json().id}`, tech)).json().surv_year).toBe(2041);
  });

  it('takes the new date’s survey year when moved back from New Year’s Day to New Year’s Eve', async () => {
    // 10:00 on the 1st of January at UTC+14 is still the 31st of December in UTC.
    const c = await collect({ collection_date: '2043-01-01T10:00:00+14:00' });
    expect(c.surv_year).toBe(2043);
    const res = await http.put(`${COLLECTIONS}/${c.id}`, tech, {
      collection_date: '2042-12-31',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().surv_year).toBe(2042);
  });

  it('keeps an explicitly different survey year when the date moves within its year', async () => {
    const c = await collect({ collection_date: '2044-01-02', surv_year: 2043 });
    const res = await http.put(`${COLLECTIONS}/${c.id}`, tech, {
      collection_date: '2044-01-03',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().surv_year).toBe(2043);
  });
});

describe('an old revision of a site whose code a later revision reuses', () => {
  async function revisions() {
    const old = await http.post(
      '/v1/site',
      manager,
      makeSite({ active_date: '2021-04-01', deactive_date: '2022-10-31' }),
    );
    expect(old.statusCode, old.body).toBe(201);
    const later = await http.post(
      '/v1/site',
      manager,
      makeSite({ code: old.json().code, name: 'Revision', active_date: '2023-04-01' }),
    );
    expect(later.statusCode, later.body).toBe(201);
    return { old: old.json() as Record<string, unknown>, later: later.json() };
  }

  it('can have its deactive date moved earlier', async () => {
    const { old } = await revisions();
    const res = await http.put(`/v1/site/${old.id}`, manager, { deactive_date: '2022-09-30' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().deactive_date).toBe('2022-09-30T00:00:00.000Z');
  });

  it('can be sent back exactly as GET returned it', async () => {
    const { old } = await revisions();
    const res = await http.put(`/v1/site/${old.id}`, manager, { ...old, comments: 'levee' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().comments).toBe('levee');
  });

  it('still may not be reopened into the later revision’s period (409)', async () => {
    const { old, later } = await revisions();
    const extended = await http.put(`/v1/site/${old.id}`, manager, {
      deactive_date: '2023-06-30',
    });
    expect(extended.statusCode, extended.body).toBe(409);
    expect(extended.json().error.code).toBe('site_code_taken');
    const earlier = await http.put(`/v1/site/${later.id}`, manager, {
      active_date: '2022-06-01',
    });
    expect(earlier.statusCode, earlier.body).toBe(409);
    const got = await http.get(`/v1/site/${old.id}`, manager);
    expect(got.json().deactive_date).toBe('2022-10-31T00:00:00.000Z');
  });
});

describe('a pool without a collection moved to another site', () => {
  it('is placed at its new site, as it is when created there', async () => {
    const point = (lon: number) => ({ type: 'Point', coordinates: [lon, 38.58] });
    const first = (await http.post('/v1/site', tech, makeSite({ shape: point(-121.4) }))).json();
    const second = (await http.post('/v1/site', tech, makeSite({ shape: point(-121.7) }))).json();
    const standalone = {
      collection_date: '2026-07-14',
      trap: TRAP_ID.co2,
      primary_source_bit: true,
      species: SPECIES_ID.cxTarsalis,
      sex: SEX_ID.fMixed,
      num_count: 5,
    };
    const created = await http.post(POOLS, tech, { ...standalone, site: first.id });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().location.shape.coordinates).toEqual([-121.4, 38.58]);

    const moved = await http.put(`${POOLS}/${created.json().id}`, tech, { site: second.id });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().site).toBe(second.id);
    expect(moved.json().location.shape.coordinates).toEqual([-121.7, 38.58]);
    const got = await http.get(`${POOLS}/${created.json().id}`, tech);
    expect(got.json().location.shape.coordinates).toEqual([-121.7, 38.58]);
    // A look-alike created at the second site is placed exactly there too.
    const twin = await http.post(POOLS, tech, { ...standalone, site: second.id });
    expect(twin.json().location.shape.coordinates).toEqual(got.json().location.shape.coordinates);
  });
});

describe('a record at a site deleted since it was filed', () => {
  it('can be sent back exactly as GET returned it (a collection and a pool without a collection)', async () => {
    const site = (await http.post('/v1/site', manager, makeSite())).json();
    const collection = await collect({ site: site.id, location: undefined, comments: 'first' });
    const pool = await http.post(POOLS, tech, {
      site: site.id,
      collection_date: '2026-07-01',
      trap: TRAP_ID.co2,
      primary_source_bit: true,
      species: SPECIES_ID.cxTarsalis,
      sex: SEX_ID.fMixed,
      num_count: 5,
    });
    expect(pool.statusCode, pool.body).toBe(201);
    expect((await http.del(`/v1/site/${site.id}`, manager)).statusCode).toBe(200);

    const c = (await http.get(`${COLLECTIONS}/${collection.id}`, tech)).json();
    const cPut = await http.put(`${COLLECTIONS}/${collection.id}`, tech, { ...c, comments: 'x' });
    expect(cPut.statusCode, cPut.body).toBe(200);
    expect(cPut.json()).toMatchObject({ site: site.id, comments: 'x', location: c.location });

    const p = (await http.get(`${POOLS}/${pool.json().id}`, tech)).json();
    const pPut = await http.put(`${POOLS}/${p.id}`, tech, { ...p, comments: 'y' });
    expect(pPut.statusCode, pPut.body).toBe(200);
    expect(pPut.json()).toMatchObject({ site: site.id, comments: 'y', location: p.location });

    // Naming the deleted site for another record is still refused.
    const other = await collect({ comments: 'elsewhere' });
    const moved = await http.put(`${COLLECTIONS}/${other.id}`, tech, { site: site.id });
    expect(moved.statusCode, moved.body).toBe(422);
    expect(moved.json().error.fields[0].path).toBe('site');
  });
});
