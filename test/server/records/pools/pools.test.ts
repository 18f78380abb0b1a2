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

const POOLS = '/v1/arthropod/pool';
const COLLECTIONS = '/v1/arthropod/collection';
const TICK = 15;

let t: TestRecords;
let http: Api;
let manager: string;
let tech: string;
let neighbor: string;

beforeAll(async () => {
  t = await buildTestRecords();
  http = api(t);
  [manager, tech, neighbor] = await Promise.all(
    ['demo-manager', 'demo-tech', 'neighbor-manager'].map((u) => t.login(u)),
  );
});
afterAll(async () => t?.close());

async function collection(over: Record<string, unknown> = {}, token = manager) {
  const res = await http.post(
    COLLECTIONS,
    token,
    makeCollection({
      arthropods: [
        { species: SPECIES_ID.cxTarsalis, sex: SEX_ID.fUnfed, num_count: 50 },
        { species: SPECIES_ID.cxPipiens, sex: SEX_ID.fMixed, num_count: 10 },
        { species: TICK, sex: SEX_ID.other, num_count: 4 },
      ],
      ...over,
    }),
  );
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

async function pool(body: Record<string, unknown>, token = manager) {
  const res = await http.post(POOLS, token, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

const tarsalis = (collectionId: number, num_count = 5) => ({
  collection: collectionId,
  species: SPECIES_ID.cxTarsalis,
  sex: SEX_ID.fUnfed,
  num_count,
});

describe('creating a pool', () => {
  it('takes site, survey year, location and collection date from the collection', async () => {
    const site = await insertSite(t, 1);
    const c = await collection({
      site,
      location: undefined,
      collection_date: '2026-07-14T06:30:00-07:00',
    });
    const p = await pool(tarsalis(c.id), tech);
    expect(Object.keys(p)[0]).toBe('id');
    expect(p).toMatchObject({
      agency: 1,
      user: 2,
      collection: c.id,
      site,
      surv_year: 2026,
      num_count: 5,
      species: SPECIES_ID.cxTarsalis,
      sex: SEX_ID.fUnfed,
      primary_source_bit: true,
      primary_source: c.id,
      collection_date: '2026-07-14T13:30:00.000Z',
      result: null,
      deactive_date: null,
    });
    expect(p.location.shape).toEqual(c.location.shape);
    expect(p.location.coordinate_precision).toBe(c.location.coordinate_precision);
  });

  it('leaves primary_source null when primary_source_bit is false', async () => {
    const c = await collection();
    const p = await pool({ ...tarsalis(c.id), primary_source_bit: false });
    expect(p).toMatchObject({ primary_source_bit: false, primary_source: null, collection: c.id });
  });

  it('numbers pools per agency and survey year, and refuses a used number with 409 pool_num_taken', async () => {
    const c = await collection({ collection_date: '2027-05-05' });
    const a = await pool(tarsalis(c.id, 1));
    const b = await pool(tarsalis(c.id, 1));
    expect([a.pool_num, b.pool_num]).toEqual([1, 2]);
    const before = await tableCounts(t);
    const dup = await http.post(POOLS, manager, { ...tarsalis(c.id, 1), pool_num: 2 });
    expect(dup.statusCode).toBe(409);
    expect(errorOf(dup).code).toBe('pool_num_taken');
    expect(await tableCounts(t)).toEqual(before);
    expect((await pool({ ...tarsalis(c.id, 1), pool_num: 77 })).pool_num).toBe(77);
  });

  it('requires num_count, species, sex and a collection or site, date and trap', async () => {
    const res = await http.post(POOLS, manager, {});
    expect(res.statusCode).toBe(422);
    const paths = errorOf(res).fields?.map((f) => f.path);
    expect(paths).toEqual(expect.arrayContaining(['num_count', 'species', 'sex']));
    const nowhere = await http.post(POOLS, manager, {
      species: 1,
      sex: SEX_ID.fUnfed,
      num_count: 1,
    });
    expect(nowhere.statusCode).toBe(422);
    expect(
      errorOf(nowhere)
        .fields?.map((f) => f.path)
        .sort(),
    ).toEqual(['collection', 'collection_date', 'site', 'trap']);
    const noBit = await http.post(POOLS, manager, {
      site: 1,
      collection_date: '2026-07-14',
      trap: TRAP_ID.co2,
      species: 1,
      sex: SEX_ID.fUnfed,
      num_count: 1,
    });
    expect(noBit.statusCode).toBe(422);
    expect(errorOf(noBit).fields?.map((f) => f.path)).toEqual(['primary_source_bit']);
  });

  it('finds the collection from site, collection date and trap when primary_source_bit is true', async () => {
    const site = await insertSite(t, 1);
    const c = await collection({
      site,
      location: undefined,
      collection_date: '2026-08-01',
      trap: TRAP_ID.gravid,
    });
    const p = await pool({
      site,
      collection_date: '2026-08-01',
      trap: TRAP_ID.gravid,
      primary_source_bit: true,
      species: SPECIES_ID.cxTarsalis,
      sex: SEX_ID.fUnfed,
      num_count: 3,
    });
    expect(p).toMatchObject({ collection: c.id, primary_source: c.id, site, trap: TRAP_ID.gravid });
    const lone = await pool({
      site,
      collection_date: '2026-08-02',
      trap: TRAP_ID.gravid,
      primary_source_bit: true,
      species: SPECIES_ID.cxTarsalis,
      sex: SEX_ID.fUnfed,
      num_count: 3,
    });
    expect(lone).toMatchObject({
      collection: null,
      primary_source: null,
      site,
      collection_date: '2026-08-02T00:00:00.000Z',
    });
    expect(lone.location).toMatchObject({ table_name: 'pool', record_id: lone.id });
  });

  it('stands alone when twin collections match its site, date and trap: it is not put on either', async () => {
    // Two CO2 traps at one site on one night: which one a pool was drawn from is not in the body.
    const site = await insertSite(t, 1);
    const twin = {
      site,
      location: undefined,
      collection_date: '2026-08-03',
      trap: TRAP_ID.co2,
      arthropods: [{ species: SPECIES_ID.cxTarsalis, sex: SEX_ID.fUnfed, num_count: 10 }],
    };
    const a = await collection(twin);
    const b = await collection(twin);
    const body = {
      site,
      collection_date: '2026-08-03',
      trap: TRAP_ID.co2,
      primary_source_bit: true,
      species: SPECIES_ID.cxTarsalis,
      sex: SEX_ID.fUnfed,
    };
    // 8 + 8 fit neither trap's 10 alone: held to one twin, the second pool was refused.
    const first = await pool({ ...body, num_count: 8 });
    const second = await pool({ ...body, num_count: 8 });
    for (const p of [first, second]) {
      expect(p).toMatchObject({ collection: null, primary_source: null, site });
    }
    // Neither twin's count is taken by pools it may not hold: each still takes a pool of 10.
    await pool(tarsalis(a.id, 10));
    await pool(tarsalis(b.id, 10));
  });

  it('refuses clearing the site, date or trap of a pool that names no collection, and keeps it as it was', async () => {
    // Contract §6: clearing a required field is a 422; these are required without a collection.
    const site = await insertSite(t, 1);
    const lone = await pool({
      site,
      collection_date: '2026-08-09',
      trap: TRAP_ID.co2,
      primary_source_bit: true,
      species: SPECIES_ID.cxTarsalis,
      sex: SEX_ID.fUnfed,
      num_count: 3,
    });
    const url = `${POOLS}/${lone.id}`;
    const before = (await http.get(url, manager)).json();
    for (const field of ['site', 'collection_date', 'trap']) {
      const res = await http.put(url, manager, { [field]: null, comments: 'cleared' });
      expect(res.statusCode, `${field}: ${res.body}`).toBe(422);
      expect(errorOf(res).fields?.map((f) => f.path)).toEqual([field]);
    }
    expect((await http.get(url, manager)).json()).toEqual(before);
  });

  it('refuses a collection of another agency or unknown lookups with 422 naming the field', async () => {
    const theirs = await collection({}, neighbor);
    const res = await http.post(POOLS, manager, { ...tarsalis(theirs.id), species: 999 });
    expect(res.statusCode).toBe(422);
    expect(
      errorOf(res)
        .fields?.map((f) => f.path)
        .sort(),
    ).toEqual(['collection', 'species']);
  });
});

describe('pools and the collection’s abundance', () => {
  it('refuses pools that together exceed the abundance row, or with no row (422 pool_count_exceeds_abundance)', async () => {
    const c = await collection();
    await pool(tarsalis(c.id, 30));
    await pool(tarsalis(c.id, 20));
    const before = await tableCounts(t);
    const over = await http.post(POOLS, manager, tarsalis(c.id, 1));
    expect(over.statusCode).toBe(422);
    expect(errorOf(over).code).toBe('pool_count_exceeds_abundance');
    expect(errorOf(over).fields?.[0].path).toBe('num_count');
    const noRow = await http.post(POOLS, manager, { ...tarsalis(c.id, 1), sex: SEX_ID.male });
    expect(noRow.statusCode).toBe(422);
    expect(errorOf(noRow).code).toBe('pool_count_exceeds_abundance');
    expect(await tableCounts(t)).toEqual(before);
  });

  it('holds under concurrent pool creates', async () => {
    const c = await collection();
    const results = await Promise.all(
      Array.from({ length: 8 }, () => http.post(POOLS, manager, tarsalis(c.id, 10))),
    );
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes).toEqual([201, 201, 201, 201, 201, 422, 422, 422]);
    const { rows } = await t.db.query<{ n: number }>(
      'select sum(num_count)::int as n from pool where collection = $1 and deactive_date is null',
      [c.id],
    );
    expect(rows[0].n).toBe(50);
  });

  it('counts only active pools, and checks updates against the rest', async () => {
    const c = await collection();
    const a = await pool(tarsalis(c.id, 40));
    const b = await pool(tarsalis(c.id, 10));
    const grow = await http.put(`${POOLS}/${b.id}`, manager, { num_count: 11 });
    expect(grow.statusCode).toBe(422);
    expect(errorOf(grow).code).toBe('pool_count_exceeds_abundance');
    expect((await http.del(`${POOLS}/${a.id}`, manager)).statusCode).toBe(200);
    const after = await http.put(`${POOLS}/${b.id}`, manager, { num_count: 50 });
    expect(after.statusCode).toBe(200);
    expect(after.json().num_count).toBe(50);
  });
});

describe('reading, updating and deleting pools', () => {
  it('always carries the collection’s current collection date', async () => {
    const c = await collection({ collection_date: '2026-06-01' });
    const p = await pool(tarsalis(c.id));
    await http.put(`${COLLECTIONS}/${c.id}`, manager, { collection_date: '2026-06-03' });
    const read = (await http.get(`${POOLS}/${p.id}`, manager)).json();
    expect(read.collection_date).toBe('2026-06-03T00:00:00.000Z');
    const listed = (await http.get(`${POOLS}?query[collection][0]=${c.id}`, manager)).json();
    expect(listed.rows[0].collection_date).toBe('2026-06-03T00:00:00.000Z');
  });

  it('follows its collection into another survey year, keeping pool numbers unique', async () => {
    const c = await collection({ collection_date: '2032-03-03', collection_num: 50 });
    const p = await pool({ ...tarsalis(c.id, 1), pool_num: 5 });
    const res = await http.put(`${COLLECTIONS}/${c.id}`, manager, { surv_year: 2033 });
    expect(res.statusCode, res.body).toBe(200);
    expect((await http.get(`${POOLS}/${p.id}`, manager)).json()).toMatchObject({
      surv_year: 2033,
      pool_num: 5,
    });
    const other = await collection({ collection_date: '2034-03-03' });
    await pool({ ...tarsalis(other.id, 1), pool_num: 5 });
    const clash = await http.put(`${COLLECTIONS}/${c.id}`, manager, { surv_year: 2034 });
    expect(clash.statusCode).toBe(409);
    expect(errorOf(clash).code).toBe('pool_num_taken');
    expect((await http.get(`${COLLECTIONS}/${c.id}`, manager)).json().surv_year).toBe(2033);
  });

  it('keeps unsent fields on PUT and ignores response-only fields', async () => {
    const c = await collection();
    const p = await pool({ ...tarsalis(c.id), comments: 'cold chain ok' });
    const res = await http.put(`${POOLS}/${p.id}`, manager, {
      num_count: 6,
      primary_source: 999,
      surv_year: 1999,
      location: null,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      num_count: 6,
      comments: 'cold chain ok',
      surv_year: p.surv_year,
      primary_source: c.id,
      pool_num: p.pool_num,
    });
  });

  it('moves a pool to another collection, taking its site, place and date and its counts', async () => {
    const siteA = await insertSite(t, 1, [-121.1, 38.1]);
    const siteB = await insertSite(t, 1, [-121.2, 38.2]);
    const a = await collection({ site: siteA, location: undefined, collection_date: '2026-09-01' });
    const b = await collection({
      site: siteB,
      location: undefined,
      collection_date: '2026-09-02',
      arthropods: [{ species: SPECIES_ID.cxTarsalis, sex: SEX_ID.fUnfed, num_count: 6 }],
    });
    const p = await pool(tarsalis(a.id, 7));
    const tooMany = await http.put(`${POOLS}/${p.id}`, manager, { collection: b.id });
    expect(tooMany.statusCode).toBe(422);
    expect(errorOf(tooMany).code).toBe('pool_count_exceeds_abundance');
    const res = await http.put(`${POOLS}/${p.id}`, manager, { collection: b.id, num_count: 6 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      collection: b.id,
      primary_source: b.id,
      site: siteB,
      collection_date: '2026-09-02T00:00:00.000Z',
      num_count: 6,
    });
    expect(res.json().location.shape.coordinates).toEqual([-121.2, 38.2]);
    const missing = await http.put(`${POOLS}/${p.id}`, manager, { collection: 999999 });
    expect(missing.statusCode).toBe(422);
    expect(errorOf(missing).fields?.[0].path).toBe('collection');
  });

  it('lets technicians update only their own pools and only managers delete', async () => {
    const c = await collection();
    const techs = await pool(tarsalis(c.id, 1), tech);
    const managers = await pool(tarsalis(c.id, 1), manager);
    expect((await http.put(`${POOLS}/${techs.id}`, tech, { comments: 'x' })).statusCode).toBe(200);
    expect((await http.put(`${POOLS}/${managers.id}`, tech, { comments: 'x' })).statusCode).toBe(
      403,
    );
    expect((await http.del(`${POOLS}/${techs.id}`, tech)).statusCode).toBe(403);
    const del = await http.del(`${POOLS}/${techs.id}`, manager);
    expect(del.statusCode).toBe(200);
    expect(del.json().deactive_date).toEqual(expect.any(String));
  });

  it('answers 404 for another agency’s pool everywhere', async () => {
    const theirs = await pool(tarsalis((await collection({}, neighbor)).id), neighbor);
    for (const res of [
      await http.get(`${POOLS}/${theirs.id}`, manager),
      await http.put(`${POOLS}/${theirs.id}`, manager, { comments: 'x' }),
      await http.del(`${POOLS}/${theirs.id}`, manager),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(errorOf(res).code).toBe('not_found');
    }
    const list = (await http.get(`${POOLS}?pageSize=1000`, manager)).json();
    expect(list.rows.every((r: { agency: number }) => r.agency === 1)).toBe(true);
  });

  it('lists mosquito pools by default and other types with type=', async () => {
    const c = await collection({ collection_date: '2031-01-01' });
    const mosquito = await pool(tarsalis(c.id, 1));
    const tick = await pool({ collection: c.id, species: TICK, sex: SEX_ID.other, num_count: 2 });
    const ids = async (qs: string) =>
      (await http.get(`${POOLS}/?query[surv_year]=2031${qs}`, manager))
        .json()
        .rows.map((r: { id: number }) => r.id);
    expect(await ids('')).toEqual([mosquito.id]);
    expect(await ids('&type=mosquito')).toEqual([mosquito.id]);
    expect(await ids('&type=tick')).toEqual([tick.id]);
    expect(await ids('&type=nontick')).toEqual([]);
    expect((await http.get(`${POOLS}?type=spider`, manager)).statusCode).toBe(422);
  });

  it('populates every contract name with its contract shape', async () => {
    const site = await insertSite(t, 1);
    const c = await collection({ site, lures: [2] });
    const p = await pool(tarsalis(c.id, 2));
    const test = await http.post(`${POOLS}/test`, manager, {
      pool: p.id,
      method: 1,
      target: 1,
      status: 1,
      test_date: '2026-07-20',
      test_agency: 3,
      value: 28.5,
    });
    expect(test.statusCode, test.body).toBe(201);
    const names = [
      'agency',
      'user',
      'collection',
      'site',
      'location',
      'species',
      'sex',
      'trap',
      'lures',
      'test',
      'status',
    ];
    const res = await http.get(
      `${POOLS}/${p.id}?${names.map((n) => `populate[]=${n}`).join('&')}`,
      manager,
    );
    expect(res.statusCode).toBe(200);
    const r = res.json();
    expect(Object.keys(r)[0]).toBe('id');
    expect(r.agency).toMatchObject({ id: 1, code: 'DVCD' });
    expect(r.user).toEqual({ id: 1, username: 'demo-manager', name: 'Dana Whitfield' });
    expect(r.collection).toMatchObject({ id: c.id, collection_num: c.collection_num });
    expect(r.site).toMatchObject({ id: site, shape: { type: 'Point' } });
    expect(r.species).toEqual({
      id: 1,
      full_name: 'Culex tarsalis',
      display_name: 'Cx tarsalis',
      type: 'mosquito',
    });
    expect(r.sex).toEqual({ id: SEX_ID.fUnfed, name: 'F-Unfed', type: 'female' });
    expect(r.trap).toMatchObject({ id: TRAP_ID.co2, acronym: 'CO2', presence: false });
    // The collection's lure types, not its link records (contract §4).
    expect(r.lures).toEqual([
      { id: 2, code: 'BGLURE', description: expect.any(String), weight: null },
    ]);
    expect(r.test).toEqual([
      {
        id: test.json().id,
        value: 28.5,
        test_date: '2026-07-20T00:00:00.000Z',
        method: { id: 1, name: 'RT-PCR', acronym: 'RT-PCR', sensitivity: 3 },
        target: {
          id: 1,
          acronym: 'WNV',
          name: expect.any(String),
          vector: expect.anything(),
          icd_10: expect.anything(),
        },
        status: { id: 1, name: expect.any(String), description: expect.anything() },
        agency: {
          id: 3,
          code: 'ARBOLAB',
          name: 'Regional Arbovirus Laboratory',
          state_acronym: 'CA',
          region: expect.any(Number),
        },
      },
    ]);
    const withoutStatus = (await http.get(`${POOLS}/${p.id}?populate[]=test`, manager)).json();
    expect(withoutStatus.test[0].status).toBe(1);
    expect((await http.get(`${POOLS}/${p.id}?populate[]=pools`, manager)).statusCode).toBe(422);
  });
});
