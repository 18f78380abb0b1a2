import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestRecords, type TestRecords } from '../../helpers/records-app';
import {
  PRECISION_ID,
  SACRAMENTO,
  SEX_ID,
  SPECIES_ID,
  TRAP_ID,
  api,
  errorOf,
  insertSite,
  makeCollection,
  tableCounts,
  zeroSiteOf,
  type Api,
} from '../helpers/arthropod-fixtures';

const URL = '/v1/arthropod/collection';
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

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

async function create(body: Record<string, unknown>, token = manager) {
  const res = await http.post(URL, token, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

describe('creating a collection', () => {
  it('returns the record with id first, defaults filled and dates in UTC with milliseconds', async () => {
    const res = await http.post(
      URL,
      tech,
      makeCollection({ collection_date: '2025-08-02T06:30:00-07:00', comments: 'windy' }),
    );
    expect(res.statusCode).toBe(201);
    const c = res.json();
    expect(Object.keys(c)[0]).toBe('id');
    expect(c).toMatchObject({
      agency: 1,
      user: 2,
      site: null,
      surv_year: 2025,
      collection_date: '2025-08-02T13:30:00.000Z',
      collection_date_date_only: false,
      num_trap: 1,
      trap: TRAP_ID.co2,
      trap_nights: 1,
      trap_problem_bit: false,
      comments: 'windy',
      deactive_date: null,
      lures: [],
      arthropods: [],
    });
    expect(c.add_date).toMatch(ISO);
    expect(c.updated).toMatch(ISO);
    expect(c.location).toEqual({
      id: expect.any(Number),
      table_name: 'collection',
      record_id: c.id,
      agency: 1,
      shape: {
        type: 'Point',
        coordinates: SACRAMENTO,
        crs: { type: 'name', properties: { name: 'EPSG:4326' } },
      },
      coordinate_precision: PRECISION_ID.gps,
    });
  });

  it('numbers collections one after another within the agency and survey year', async () => {
    const a = await create(makeCollection({ collection_date: '2024-05-01' }));
    const b = await create(makeCollection({ collection_date: '2024-05-02' }));
    const other = await create(makeCollection({ collection_date: '2024-05-03' }), neighbor);
    expect(b.collection_num).toBe(a.collection_num + 1);
    expect(other.collection_num).toBe(1);
    const explicitYear = await create(
      makeCollection({ collection_date: '2024-12-30', surv_year: 2023 }),
    );
    expect(explicitYear).toMatchObject({ surv_year: 2023, collection_num: 1 });
  });

  it('refuses an explicit collection number already used that year with 409 collection_num_taken', async () => {
    await create(makeCollection({ collection_date: '2022-06-01', collection_num: 40 }));
    const before = await tableCounts(t);
    const res = await http.post(
      URL,
      manager,
      makeCollection({ collection_date: '2022-07-01', collection_num: 40 }),
    );
    expect(res.statusCode).toBe(409);
    expect(errorOf(res).code).toBe('collection_num_taken');
    expect(await tableCounts(t)).toEqual(before);
    const next = await create(makeCollection({ collection_date: '2022-07-01' }));
    expect(next.collection_num).toBe(41);
  });

  it('gives 8 concurrent creates 8 distinct numbers', async () => {
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        http.post(URL, i % 2 ? tech : manager, makeCollection({ collection_date: '2021-04-10' })),
      ),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(8).fill(201));
    const nums = results.map((r) => r.json().collection_num).sort((a, b) => a - b);
    expect(nums).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('lets only one of two concurrent creates claim the same explicit number', async () => {
    const body = makeCollection({ collection_date: '2020-02-02', collection_num: 9 });
    const [a, b] = await Promise.all([http.post(URL, manager, body), http.post(URL, tech, body)]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([201, 409]);
    expect(errorOf(a.statusCode === 409 ? a : b).code).toBe('collection_num_taken');
  });

  it('takes the location from the site when none is sent', async () => {
    const site = await insertSite(t, 1, [-121.3, 38.7], PRECISION_ID.address);
    const c = await create({ ...makeCollection({ site }), location: undefined });
    expect(c.site).toBe(site);
    expect(c.location).toMatchObject({
      table_name: 'collection',
      record_id: c.id,
      agency: 1,
      coordinate_precision: PRECISION_ID.address,
    });
    expect(c.location.shape.coordinates).toEqual([-121.3, 38.7]);
  });

  it('requires a location at the Zero Site or without a site (422 location_required)', async () => {
    const zero = await zeroSiteOf(t, 1);
    const before = await tableCounts(t);
    for (const body of [
      { ...makeCollection({ site: zero }), location: undefined },
      { ...makeCollection(), location: undefined },
    ]) {
      const res = await http.post(URL, manager, body);
      expect(res.statusCode).toBe(422);
      expect(errorOf(res).code).toBe('location_required');
      expect(errorOf(res).fields?.[0].path).toBe('location');
    }
    expect(await tableCounts(t)).toEqual(before);
    const ok = await create(makeCollection({ site: zero }));
    expect(ok.site).toBe(zero);
  });

  it('refuses a site of another agency with 422 naming site, without revealing it', async () => {
    const theirs = await insertSite(t, 2);
    const res = await http.post(URL, manager, makeCollection({ site: theirs }));
    expect(res.statusCode).toBe(422);
    expect(errorOf(res).fields).toEqual([
      { path: 'site', message: expect.stringContaining('No site') },
    ]);
    const missing = await http.post(URL, manager, makeCollection({ site: 999999 }));
    expect(errorOf(missing).fields?.[0].message.replace('999999', String(theirs))).toBe(
      errorOf(res).fields?.[0].message,
    );
  });

  it('names every unknown or inactive lookup id in one 422', async () => {
    await t.db.query('update lure set active = false where id = 5');
    const res = await http.post(
      URL,
      manager,
      makeCollection({
        trap: 999,
        lures: [1, 5],
        location: { shape: { type: 'Point', coordinates: SACRAMENTO }, coordinate_precision: 99 },
        arthropods: [{ species: 999, sex: 998, num_count: 3 }],
      }),
    );
    expect(res.statusCode).toBe(422);
    expect(errorOf(res).code).toBe('validation_failed');
    expect(
      errorOf(res)
        .fields?.map((f) => f.path)
        .sort(),
    ).toEqual(
      [
        'arthropods.0.sex',
        'arthropods.0.species',
        'location.coordinate_precision',
        'lures.1',
        'trap',
      ].sort(),
    );
  });

  it('stores a lure named twice once, as a PUT of the same list does', async () => {
    const c = await create(makeCollection({ lures: [3, 1, 3] }));
    expect(c.lures.map((l: { lure: number }) => l.lure)).toEqual([3, 1]);
    const read = (await http.get(`/v1/arthropod/collection/${c.id}`, manager)).json();
    expect(read.lures).toEqual(c.lures);
    const put = await http.put(`/v1/arthropod/collection/${c.id}`, manager, { lures: [3, 1, 3] });
    expect(put.statusCode, put.body).toBe(200);
    expect(
      put
        .json()
        .lures.map((l: { id: number }) => l.id)
        .sort(),
    ).toEqual(c.lures.map((l: { id: number }) => l.id).sort());
  });

  it('stores one abundance row per species and sex, and lists lure records', async () => {
    const c = await create(
      makeCollection({
        lures: [1, 3],
        arthropods: [
          { species: SPECIES_ID.cxTarsalis, sex: SEX_ID.fMixed, num_count: 12 },
          { species: SPECIES_ID.cxTarsalis, sex: SEX_ID.male, num_count: 4 },
        ],
      }),
    );
    expect(c.arthropods).toEqual([
      {
        id: expect.any(Number),
        collection: c.id,
        agency: 1,
        species: SPECIES_ID.cxTarsalis,
        sex: SEX_ID.fMixed,
        num_count: 12,
        deactive_date: null,
      },
      {
        id: expect.any(Number),
        collection: c.id,
        agency: 1,
        species: SPECIES_ID.cxTarsalis,
        sex: SEX_ID.male,
        num_count: 4,
        deactive_date: null,
      },
    ]);
    expect(c.lures).toEqual(
      [1, 3].map((lure) => ({
        id: expect.any(Number),
        add_date: expect.stringMatching(ISO),
        table_name: 'collection',
        record_id: c.id,
        agency: 1,
        lure,
        deactive_date: null,
      })),
    );
    const dup = await http.post(
      URL,
      manager,
      makeCollection({
        arthropods: [
          { species: 1, sex: 5, num_count: 1 },
          { species: 1, sex: 5, num_count: 2 },
        ],
      }),
    );
    expect(dup.statusCode).toBe(422);
  });

  it('answers a create with exactly the record a read returns, for look-alike creates sent at once', async () => {
    // Same day, trap and place; lures and rows out of id order; one species twice.
    const body = makeCollection({
      collection_date: '2026-07-14T06:30:00-07:00',
      lures: [3, 1, 2],
      arthropods: [
        { species: SPECIES_ID.cxPipiens, sex: SEX_ID.male, num_count: 3 },
        { species: SPECIES_ID.cxTarsalis, sex: SEX_ID.fMixed, num_count: 12 },
        { species: SPECIES_ID.cxTarsalis, sex: SEX_ID.male, num_count: 4 },
        { species: SPECIES_ID.cxPipiens, sex: SEX_ID.fMixed, num_count: 9 },
      ],
    });
    const created = await Promise.all(Array.from({ length: 6 }, () => create(body)));
    for (const c of created) {
      const read = await http.get(`${URL}/${c.id}`, manager);
      expect(c).toEqual(read.json());
      expect(c.lures.map((l: { lure: number }) => l.lure)).toEqual([3, 1, 2]);
      expect(c.arthropods.map((a: { num_count: number }) => a.num_count)).toEqual([3, 12, 4, 9]);
    }
  });

  it('refuses F-Mixed with a specific female condition of the same species (422 mixed_condition_conflict)', async () => {
    const before = await tableCounts(t);
    const res = await http.post(
      URL,
      manager,
      makeCollection({
        arthropods: [
          { species: SPECIES_ID.cxPipiens, sex: SEX_ID.fMixed, num_count: 3 },
          { species: SPECIES_ID.cxPipiens, sex: SEX_ID.fGravid, num_count: 2 },
          { species: SPECIES_ID.cxTarsalis, sex: SEX_ID.fGravid, num_count: 2 },
        ],
      }),
    );
    expect(res.statusCode).toBe(422);
    expect(errorOf(res).code).toBe('mixed_condition_conflict');
    expect(errorOf(res).fields).toEqual([
      { path: 'arthropods.1.sex', message: expect.stringContaining('F-Mixed') },
    ]);
    expect(await tableCounts(t)).toEqual(before);
  });

  it('rejects missing required fields, unknown fields and response-only fields, listing each', async () => {
    const res = await http.post(URL, manager, { trap: TRAP_ID.co2, colour: 'red', id: 5 });
    expect(res.statusCode).toBe(422);
    const paths = errorOf(res).fields?.map((f) => f.path) ?? [];
    expect(paths).toEqual(expect.arrayContaining(['collection_date', 'num_trap', 'trap_nights']));
    expect(errorOf(res).fields?.find((f) => f.path === 'collection_date')?.message).toBe(
      'Required',
    );
    expect(JSON.stringify(errorOf(res).fields)).toContain('colour');
  });

  it('creates one collection for a create retried with the same Idempotency-Key', async () => {
    const body = makeCollection({ collection_date: '2017-05-05', comments: 'retried' });
    const send = () =>
      t.app.inject({
        method: 'POST',
        url: URL,
        headers: { ...t.auth(tech), 'idempotency-key': '6f1c1f9e-4b7e-4a55-9d61-2f0c3a7b9e10' },
        payload: body,
      });
    const first = await send();
    const again = await send();
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    const { rows } = await t.db.query(`select id from collection where comments = 'retried'`);
    expect(rows).toHaveLength(1);
  });

  it('refuses a body naming another agency with 403', async () => {
    const res = await http.post(URL, manager, makeCollection({ agency: 2 }));
    expect(res.statusCode).toBe(403);
    expect(errorOf(res)).toMatchObject({
      code: 'forbidden',
      message: 'A collection can only be written for your own agency',
    });
  });
});

describe('reading collections', () => {
  it('answers 404 for an unknown id, a malformed id, and another agency’s collection', async () => {
    const theirs = await create(makeCollection(), neighbor);
    for (const url of [`${URL}/${theirs.id}`, `${URL}/999999`, `${URL}/abc`]) {
      const res = await http.get(url, manager);
      expect(res.statusCode).toBe(404);
      expect(errorOf(res).code).toBe('not_found');
    }
    for (const res of [
      await http.put(`${URL}/${theirs.id}`, manager, { comments: 'x' }),
      await http.del(`${URL}/${theirs.id}`, manager),
    ]) {
      expect(res.statusCode).toBe(404);
    }
  });

  it('populates every contract name with its contract shape', async () => {
    const site = await insertSite(t, 1);
    const c = await create(
      makeCollection({
        site,
        lures: [1],
        arthropods: [{ species: SPECIES_ID.cxTarsalis, sex: SEX_ID.fUnfed, num_count: 5 }],
      }),
    );
    const pool = await http.post('/v1/arthropod/pool', manager, {
      collection: c.id,
      species: SPECIES_ID.cxTarsalis,
      sex: SEX_ID.fUnfed,
      num_count: 5,
    });
    expect(pool.statusCode).toBe(201);
    const names = ['agency', 'user', 'trap', 'site', 'location', 'arthropods', 'pools', 'lures'];
    const res = await http.get(
      `${URL}/${c.id}?${names.map((n) => `populate[]=${n}`).join('&')}`,
      manager,
    );
    expect(res.statusCode).toBe(200);
    const p = res.json();
    expect(Object.keys(p)[0]).toBe('id');
    expect(p.agency).toEqual({
      id: 1,
      code: 'DVCD',
      name: 'Demo Vector Control District',
      state_acronym: 'CA',
      region: expect.any(Number),
    });
    expect(p.user).toEqual({ id: 1, username: 'demo-manager', name: 'Dana Whitfield' });
    expect(p.trap).toEqual({
      id: TRAP_ID.co2,
      acronym: 'CO2',
      name: expect.any(String),
      presence: false,
    });
    expect(p.site).toMatchObject({
      id: site,
      agency: 1,
      code: expect.stringMatching(/^\d{6}$/),
      shape: { type: 'Point' },
    });
    expect(p.location.coordinate_precision).toEqual({
      id: PRECISION_ID.gps,
      name: 'GPS (< 10 m)',
      meters: 10,
    });
    expect(p.arthropods[0].species).toEqual({
      id: 1,
      full_name: 'Culex tarsalis',
      display_name: 'Cx tarsalis',
      type: 'mosquito',
    });
    expect(p.arthropods[0].sex).toEqual({ id: SEX_ID.fUnfed, name: 'F-Unfed', type: 'female' });
    // populate[]=lures gives the lure types themselves, not the link records (contract §4).
    expect(p.lures).toEqual([
      { id: 1, code: 'DRYICE', description: expect.any(String), weight: 1 },
    ]);
    expect(p.pools).toHaveLength(1);
    expect(p.pools[0]).toMatchObject({ id: pool.json().id, collection: c.id, num_count: 5 });

    const bad = await http.get(`${URL}/${c.id}?populate[]=species`, manager);
    expect(bad.statusCode).toBe(422);
    expect(errorOf(bad).fields?.[0].path).toBe('populate');
  });
});

describe('updating a collection', () => {
  it('changes only the fields sent and replaces arthropods and lures, retiring removed rows', async () => {
    const c = await create(
      makeCollection({
        comments: 'first',
        identified_by: 'R. Ortiz',
        lures: [1, 2],
        arthropods: [
          { species: SPECIES_ID.cxTarsalis, sex: SEX_ID.fMixed, num_count: 10 },
          { species: SPECIES_ID.cxPipiens, sex: SEX_ID.male, num_count: 2 },
        ],
      }),
    );
    const kept = c.arthropods[0].id;
    const res = await http.put(`${URL}/${c.id}`, manager, {
      num_trap: 2,
      comments: null,
      arthropods: [
        { species: SPECIES_ID.cxTarsalis, sex: SEX_ID.fMixed, num_count: 11 },
        { species: SPECIES_ID.aeVexans, sex: SEX_ID.fMixed, num_count: 1 },
      ],
      lures: [2, 4],
      id: 12345,
      add_date: 'ignored',
    });
    expect(res.statusCode, res.body).toBe(200);
    const u = res.json();
    expect(u).toMatchObject({
      id: c.id,
      num_trap: 2,
      comments: null,
      identified_by: 'R. Ortiz',
      collection_num: c.collection_num,
      trap: c.trap,
    });
    expect(u.add_date).toBe(c.add_date);
    expect(
      u.arthropods.map((a: { species: number; num_count: number }) => [a.species, a.num_count]),
    ).toEqual([
      [SPECIES_ID.cxTarsalis, 11],
      [SPECIES_ID.aeVexans, 1],
    ]);
    expect(u.arthropods[0].id).toBe(kept);
    expect(u.lures.map((l: { lure: number }) => l.lure).sort()).toEqual([2, 4]);

    const { rows: retired } = await t.db.query<{ species: number; deactive_date: Date | null }>(
      'select species, deactive_date from abundance where collection = $1 order by id',
      [c.id],
    );
    expect(retired).toHaveLength(3);
    expect(retired.find((r) => r.species === SPECIES_ID.cxPipiens)?.deactive_date).toBeInstanceOf(
      Date,
    );
    const { rows: lures } = await t.db.query<{ lure: number; deactive_date: Date | null }>(
      `select lure, deactive_date from record_lure where table_name = 'collection' and record_id = $1 order by id`,
      [c.id],
    );
    expect(lures.map((l) => [l.lure, l.deactive_date !== null])).toEqual([
      [1, true],
      [2, false],
      [4, false],
    ]);

    const again = await http.put(`${URL}/${c.id}`, manager, { comments: 'second' });
    expect(again.json().arthropods).toHaveLength(2);
    expect(again.json().lures).toHaveLength(2);
    expect(Date.parse(again.json().updated)).toBeGreaterThanOrEqual(Date.parse(u.updated));
  });

  it('refuses clearing a required field and rolls back a rejected update completely', async () => {
    const c = await create(makeCollection({ comments: 'keep me' }));
    const cleared = await http.put(`${URL}/${c.id}`, manager, { trap: null });
    expect(cleared.statusCode).toBe(422);
    const conflict = await http.put(`${URL}/${c.id}`, manager, {
      comments: 'changed',
      arthropods: [
        { species: 1, sex: SEX_ID.fMixed, num_count: 1 },
        { species: 1, sex: SEX_ID.fBloodfed, num_count: 1 },
      ],
    });
    expect(conflict.statusCode).toBe(422);
    expect(errorOf(conflict).code).toBe('mixed_condition_conflict');
    const after = (await http.get(`${URL}/${c.id}`, manager)).json();
    expect(after.comments).toBe('keep me');
    expect(after.arthropods).toEqual([]);
  });

  it('refuses an arthropod count lower than what its pools already hold', async () => {
    const c = await create(
      makeCollection({ arthropods: [{ species: 1, sex: SEX_ID.fUnfed, num_count: 10 }] }),
    );
    await http.post('/v1/arthropod/pool', manager, {
      collection: c.id,
      species: 1,
      sex: SEX_ID.fUnfed,
      num_count: 8,
    });
    const res = await http.put(`${URL}/${c.id}`, manager, {
      arthropods: [{ species: 1, sex: SEX_ID.fUnfed, num_count: 5 }],
    });
    expect(res.statusCode).toBe(422);
    expect(errorOf(res).code).toBe('pool_count_exceeds_abundance');
  });

  it('refuses to move a collection onto a number already used (409)', async () => {
    const a = await create(makeCollection({ collection_date: '2019-01-01' }));
    const b = await create(makeCollection({ collection_date: '2019-01-02' }));
    const res = await http.put(`${URL}/${b.id}`, manager, { collection_num: a.collection_num });
    expect(res.statusCode).toBe(409);
    expect(errorOf(res).code).toBe('collection_num_taken');
  });

  it('lets a technician update only their own collections, and a manager any of the agency', async () => {
    const mine = await create(makeCollection(), tech);
    const managers = await create(makeCollection(), manager);
    expect((await http.put(`${URL}/${mine.id}`, tech, { comments: 'mine' })).statusCode).toBe(200);
    const denied = await http.put(`${URL}/${managers.id}`, tech, { comments: 'not mine' });
    expect(denied.statusCode).toBe(403);
    expect(errorOf(denied).code).toBe('forbidden');
    expect((await http.put(`${URL}/${mine.id}`, manager, { comments: 'checked' })).statusCode).toBe(
      200,
    );
  });
  it('moves the location to a newly named site, and the pools follow', async () => {
    const first = await insertSite(t, 1, [-121.1, 38.1]);
    const second = await insertSite(t, 1, [-121.2, 38.2], PRECISION_ID.city);
    const c = await create({
      ...makeCollection({
        site: first,
        arthropods: [{ species: 1, sex: SEX_ID.male, num_count: 3 }],
      }),
      location: undefined,
    });
    const pool = await http.post('/v1/arthropod/pool', manager, {
      collection: c.id,
      species: 1,
      sex: SEX_ID.male,
      num_count: 3,
    });
    const res = await http.put(`${URL}/${c.id}`, manager, { site: second });
    expect(res.statusCode).toBe(200);
    expect(res.json().location).toMatchObject({
      table_name: 'collection',
      record_id: c.id,
      coordinate_precision: PRECISION_ID.city,
      shape: { coordinates: [-121.2, 38.2] },
    });
    const p = (await http.get(`/v1/arthropod/pool/${pool.json().id}`, manager)).json();
    expect(p.site).toBe(second);
    expect(p.location.shape.coordinates).toEqual([-121.2, 38.2]);

    const exact = await create(makeCollection({ site: first }));
    const same = await http.put(`${URL}/${exact.id}`, manager, { site: first, comments: 'again' });
    expect(same.json().location).toEqual(exact.location);
  });

  it('lets a technician move their own collection to another site, its place following; not another’s', async () => {
    const wrong = await insertSite(t, 1, [-121.31, 38.31]);
    const right = await insertSite(t, 1, [-121.32, 38.32], PRECISION_ID.city);
    const mine = await create(makeCollection({ site: wrong, location: undefined }), tech);
    const res = await http.put(`${URL}/${mine.id}`, tech, { site: right });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      site: right,
      user: mine.user,
      location: {
        shape: { coordinates: [-121.32, 38.32] },
        coordinate_precision: PRECISION_ID.city,
      },
    });

    const managers = await create(makeCollection({ site: wrong, location: undefined }), manager);
    const denied = await http.put(`${URL}/${managers.id}`, tech, { site: right });
    expect(denied.statusCode).toBe(403);
    expect(errorOf(denied).code).toBe('forbidden');
  });

  it('treats an agency token as a manager with no user', async () => {
    const issued = await http.post('/v1/agency/token', manager, {});
    expect(issued.statusCode).toBe(201);
    const agencyToken = issued.json().token as string;
    const c = await create(makeCollection(), agencyToken);
    expect(c.user).toBeNull();
    const techs = await create(makeCollection(), tech);
    expect((await http.put(`${URL}/${techs.id}`, agencyToken, { comments: 'ok' })).statusCode).toBe(
      200,
    );
    expect((await http.del(`${URL}/${c.id}`, agencyToken)).statusCode).toBe(200);
  });
});

describe('deleting a collection', () => {
  it('is for managers only and retires the collection instead of erasing it', async () => {
    const c = await create(makeCollection({ collection_date: '2018-03-03' }), tech);
    const denied = await http.del(`${URL}/${c.id}`, tech);
    expect(denied.statusCode).toBe(403);
    const res = await http.del(`${URL}/${c.id}`, manager);
    expect(res.statusCode).toBe(200);
    expect(res.json().deactive_date).toMatch(ISO);
    const list = (await http.get(`${URL}?query[surv_year]=2018`, manager)).json();
    expect(list.rows.map((r: { id: number }) => r.id)).not.toContain(c.id);
    const { rows } = await t.db.query('select deactive_date from collection where id = $1', [c.id]);
    expect(rows).toHaveLength(1);
    expect((await http.put(`${URL}/${c.id}`, manager, { comments: 'late' })).statusCode).toBe(404);
  });
});

describe('listing collections', () => {
  let ids: number[] = [];
  beforeAll(async () => {
    ids = [];
    const dates = ['2030-06-01', '2030-06-03', '2030-06-02', '2030-07-15', '2030-08-20'];
    const comments = ['North ditch', 'south pond', 'Dairy NORTH', null, 'school'];
    for (let i = 0; i < dates.length; i++) {
      ids.push(
        (
          await create(
            makeCollection({ collection_date: dates[i], comments: comments[i], num_trap: i + 1 }),
          )
        ).id,
      );
    }
    await create(
      makeCollection({ collection_date: '2030-06-01', comments: 'north of theirs' }),
      neighbor,
    );
  });

  it('returns {rows, count} with count before paging, with or without a trailing slash', async () => {
    for (const url of [
      `${URL}?query[surv_year]=2030&pageSize=2&page=2`,
      `${URL}/?query[surv_year]=2030&page_size=2&page=2`,
    ]) {
      const res = await http.get(url, manager);
      expect(res.statusCode).toBe(200);
      expect(res.json().count).toBe(5);
      expect(res.json().rows.map((r: { id: number }) => r.id)).toEqual(ids.slice(2, 4));
    }
  });

  it('sorts by a field ascending or descending', async () => {
    const res = (
      await http.get(`${URL}?query[surv_year]=2030&sort=-collection_date`, manager)
    ).json();
    expect(
      res.rows.map((r: { collection_date: string }) => r.collection_date.slice(0, 10)),
    ).toEqual(['2030-08-20', '2030-07-15', '2030-06-03', '2030-06-02', '2030-06-01']);
  });

  it('searches string fields case-insensitively and only the caller’s agency', async () => {
    const res = (await http.get(`${URL}?search=north&searchFields[]=comments`, manager)).json();
    expect(res.rows.map((r: { comments: string }) => r.comments).sort()).toEqual([
      'Dairy NORTH',
      'North ditch',
    ]);
    const bad = await http.get(`${URL}?search=north&searchFields[]=num_trap`, manager);
    expect(bad.statusCode).toBe(422);
  });

  it('filters with query operators, arrays and between', async () => {
    const get = async (qs: string) => {
      const res = await http.get(`${URL}?query[surv_year]=2030&${qs}`, manager);
      expect(res.statusCode, `${qs} → ${res.body}`).toBe(200);
      return res.json() as { rows: { comments: string | null }[]; count: number };
    };
    expect((await get('query[num_trap][$gte]=4')).count).toBe(2);
    expect((await get('query[num_trap][$in][0]=1&query[num_trap][$in][1]=5')).count).toBe(2);
    expect((await get('query[num_trap][0]=2&query[num_trap][1]=3')).count).toBe(2);
    expect(
      (
        await get(
          'query[collection_date][$between][0]=2030-06-02&query[collection_date][$between][1]=2030-07-31',
        )
      ).count,
    ).toBe(3);
    expect((await get('query[collection_date][$lt]=2030-06-02')).count).toBe(1);
    expect((await get('query[num_trap][$ne]=1')).count).toBe(4);
    expect((await get(`query[agency][0]=1`)).count).toBe(5);
  });

  it('limits fields with fields[] keeping id first, and populates rows', async () => {
    const res = (
      await http.get(
        `${URL}?query[surv_year]=2030&fields[]=comments&fields[]=trap&populate[]=trap&pageSize=1`,
        manager,
      )
    ).json();
    expect(res.rows[0]).toEqual({
      id: ids[0],
      comments: 'North ditch',
      trap: expect.objectContaining({ acronym: 'CO2' }),
    });
  });

  it('answers 422 for unknown fields, operators, sorts and page sizes over 1000', async () => {
    for (const qs of [
      'query[colour]=red',
      'query[num_trap][$like]=1',
      'sort=colour',
      'pageSize=1001',
      'fields[]=colour',
      'query[num_trap]=many',
    ]) {
      const res = await http.get(`${URL}?${qs}`, manager);
      expect(res.statusCode, qs).toBe(422);
      expect(errorOf(res).code).toBe('validation_failed');
    }
  });

  it('accepts a GET that carries Content-Type: application/json and no body', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: URL,
      headers: { ...t.auth(manager), 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(200);
  });

  it('binds values instead of concatenating them into SQL', async () => {
    const res = await http.get(
      `${URL}?search=${encodeURIComponent("'; drop table collection; --")}`,
      manager,
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().count).toBe(0);
    expect((await http.get(URL, manager)).json().count).toBeGreaterThan(0);
  });
});
