import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestRecords, type TestRecords } from '../helpers/records-app';
import { makeSite } from './factories/make-site';
import { site as siteSchema } from '#shared/schemas/site';

let t: TestRecords;
let manager: string;
let tech: string;
let neighbor: string;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

beforeAll(async () => {
  t = await buildTestRecords();
  [manager, tech, neighbor] = await Promise.all(
    ['demo-manager', 'demo-tech', 'neighbor-manager'].map((u) => t.login(u)),
  );
});
afterAll(() => t.close());

const post = (token: string, payload: unknown, url = '/v1/site') =>
  t.app.inject({ method: 'POST', url, headers: t.auth(token), payload: payload as object });
const get = (token: string, url: string) =>
  t.app.inject({ method: 'GET', url, headers: t.auth(token) });
const put = (token: string, id: number, payload: unknown) =>
  t.app.inject({
    method: 'PUT',
    url: `/v1/site/${id}`,
    headers: t.auth(token),
    payload: payload as object,
  });
const del = (token: string, id: number) =>
  t.app.inject({ method: 'DELETE', url: `/v1/site/${id}`, headers: t.auth(token) });
const siteCount = async () =>
  Number((await t.db.query<{ n: number }>('select count(*)::int as n from site')).rows[0].n);

describe('creating a site', () => {
  it('answers 201 with the record: id first, crs on the shape, agency region, numeric-string elevation, UTC dates', async () => {
    const res = await post(
      tech,
      makeSite({
        elevation: 7.5,
        active_date: '2026-04-01',
        site_land_usage: [1, 8],
        postal_code: '95616',
      }),
    );
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(Object.keys(body)[0]).toBe('id');
    expect(siteSchema.parse(body)).toBeTruthy();
    expect(body.shape).toEqual({
      type: 'Point',
      coordinates: [-121.49, 38.58],
      crs: { type: 'name', properties: { name: 'EPSG:4326' } },
    });
    expect(body).toMatchObject({
      agency: 1,
      region: 2,
      elevation: '7.5',
      active_date: '2026-04-01T00:00:00.000Z',
      site_land_usage: [1, 8],
      delete_date: null,
    });
    expect(body.user).toBeTypeOf('number');
    expect(body.add_date).toMatch(ISO);
    expect(body.updated).toMatch(ISO);
  });

  it('accepts a Sacramento point given as [longitude, latitude]', async () => {
    const res = await post(
      tech,
      makeSite({ shape: { type: 'Point', coordinates: [-121.49, 38.58] } }),
    );
    expect(res.statusCode).toBe(201);
  });

  it('rejects [latitude, longitude] with a message that names the likely swap', async () => {
    const res = await post(
      tech,
      makeSite({ shape: { type: 'Point', coordinates: [38.58, -121.49] } }),
    );
    expect(res.statusCode).toBe(422);
    const { error } = res.json();
    expect(error.code).toBe('validation_failed');
    expect(error.fields[0].path).toBe('shape.coordinates');
    expect(error.fields[0].message).toMatch(/swapped/);
    expect(error.fields[0].message).toContain('[-121.49, 38.58]');
  });

  it('rejects a shape that is not a Point, unknown fields and response-only fields, listing every field', async () => {
    const res = await post(tech, {
      ...makeSite({ shape: { type: 'Polygon', coordinates: [0, 0] } }),
      colour: 'red',
      id: 5,
      name: '',
    });
    expect(res.statusCode).toBe(422);
    const paths = res.json().error.fields.map((f: { path: string }) => f.path);
    expect(paths).toEqual(expect.arrayContaining(['shape.type', 'name', '(body)']));
    expect(JSON.stringify(res.json().error.fields)).toMatch(/colour/);
    expect(JSON.stringify(res.json().error.fields)).toMatch(/\bid\b/);
  });

  it('names the field of an unknown lookup id', async () => {
    const res = await post(
      tech,
      makeSite({ coordinate_precision: 999, site_land_usage: [1, 777] }),
    );
    expect(res.statusCode).toBe(422);
    expect(res.json().error.fields.map((f: { path: string }) => f.path)).toEqual([
      'coordinate_precision',
      'site_land_usage.1',
    ]);
  });

  it('answers 422, never 500, for values PostgreSQL cannot store: NUL text, ids beyond int, year 0000', async () => {
    const before = await siteCount();
    const res = await post(
      tech,
      makeSite({
        name: 'Pond\u0000edge',
        coordinate_precision: 2 ** 31,
        active_date: '0000-01-01',
      }),
    );
    expect(res.statusCode).toBe(422);
    expect(res.json().error.fields.map((f: { path: string }) => f.path)).toContain('name');
    const ids = await post(tech, makeSite({ coordinate_precision: Number.MAX_SAFE_INTEGER }));
    expect(ids.statusCode).toBe(422);
    expect(ids.json().error.fields[0].path).toBe('coordinate_precision');
    const year0 = await post(tech, makeSite({ active_date: '0000-01-01' }));
    expect(year0.statusCode).toBe(422);
    expect(year0.json().error.fields[0].path).toBe('active_date');
    expect(await siteCount()).toBe(before);
  });

  it("refuses a body naming another agency with 403, and takes the caller's agency otherwise", async () => {
    const res = await post(tech, makeSite({ agency: 2 }));
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('forbidden');
    expect((await post(tech, makeSite({ agency: 1 }))).statusCode).toBe(201);
  });

  it('answers 409 site_code_taken for a code in use, naming the site that uses it', async () => {
    const body = makeSite();
    expect((await post(tech, body)).statusCode).toBe(201);
    const res = await post(manager, { ...body, name: 'Another name' });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.code).toBe('site_code_taken');
    expect(res.json().error.message).toContain(String(body.name));
  });

  it('lets a code be reused for a later period after the old site was deactivated', async () => {
    const old = makeSite({ active_date: '2020-04-01', deactive_date: '2023-10-31' });
    expect((await post(tech, old)).statusCode).toBe(201);
    const overlapping = await post(tech, {
      ...old,
      name: 'Revision',
      active_date: '2023-06-01',
      deactive_date: null,
    });
    expect(overlapping.statusCode).toBe(409);
    const later = await post(tech, {
      ...old,
      name: 'Revision',
      active_date: '2024-04-01',
      deactive_date: null,
      revision_comments: 'Trap moved 20 m',
    });
    expect(later.statusCode).toBe(201);
  });

  it('lets another agency use the same code', async () => {
    const body = makeSite();
    expect((await post(tech, body)).statusCode).toBe(201);
    expect((await post(neighbor, body)).statusCode).toBe(201);
  });

  it('creates exactly one of 10 concurrent creates of one code; the other nine get 409', async () => {
    const body = makeSite();
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        post(i % 2 ? manager : tech, { ...body, name: `Racer ${i}` }),
      ),
    );
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(9);
    for (const r of results.filter((x) => x.statusCode === 409))
      expect(r.json().error.code).toBe('site_code_taken');
    const rows = await t.db.query('select id from site where agency = 1 and code = $1', [
      body.code,
    ]);
    expect(rows.rows).toHaveLength(1);
  });

  it('answers 201 on the path with a trailing slash too', async () => {
    expect((await post(tech, makeSite(), '/v1/site/')).statusCode).toBe(201);
  });
});

describe('the Zero Site', () => {
  const zeroOf = async (token: string) =>
    (await get(token, '/v1/site?query[code]=000000')).json().rows[0];

  it('exists for each agency with code 000000', async () => {
    expect((await zeroOf(manager)).agency).toBe(1);
    expect((await zeroOf(neighbor)).agency).toBe(2);
  });

  it('cannot take another code, cannot be deleted, and its code cannot be created again', async () => {
    const zero = await zeroOf(manager);
    const recode = await put(manager, zero.id, { code: '123123' });
    expect(recode.statusCode).toBe(422);
    expect(recode.json().error.fields[0].path).toBe('code');
    const removed = await del(manager, zero.id);
    expect(removed.statusCode).toBe(422);
    expect((await post(manager, makeSite({ code: '000000' }))).statusCode).toBe(409);
    // Other fields may change.
    expect((await put(manager, zero.id, { comments: 'Use for one-off calls' })).statusCode).toBe(
      200,
    );
  });
});

describe('updating a site', () => {
  it('changes only the fields sent; null clears an optional field; updated moves on', async () => {
    const created = (
      await post(tech, makeSite({ city: 'Davis', comments: 'Under the oak', elevation: 16 }))
    ).json();
    await new Promise((r) => setTimeout(r, 5));
    const res = await put(tech, created.id, { name: 'Renamed', comments: null });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      name: 'Renamed',
      comments: null,
      city: 'Davis',
      elevation: '16',
      code: created.code,
      shape: created.shape,
    });
    expect(Date.parse(body.updated)).toBeGreaterThan(Date.parse(created.updated));
    expect(body.add_date).toBe(created.add_date);
  });

  it('rejects clearing a required field with 422', async () => {
    const created = (await post(tech, makeSite())).json();
    const res = await put(tech, created.id, { name: null, shape: null });
    expect(res.statusCode).toBe(422);
    expect(
      res
        .json()
        .error.fields.map((f: { path: string }) => f.path)
        .sort(),
    ).toEqual(['name', 'shape']);
  });

  it('ignores response-only fields sent back on PUT', async () => {
    const created = (await post(tech, makeSite())).json();
    const res = await put(tech, created.id, {
      ...created,
      id: 999_999,
      add_date: '2000-01-01T00:00:00.000Z',
      name: 'Echoed',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: created.id,
      add_date: created.add_date,
      name: 'Echoed',
    });
  });

  it("answers 409 when a new code is another site's", async () => {
    const a = (await post(tech, makeSite())).json();
    const b = (await post(tech, makeSite())).json();
    const res = await put(tech, b.id, { code: a.code });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.code).toBe('site_code_taken');
  });

  it('answers 409 when reopening an old site whose code a later site now uses', async () => {
    const old = (
      await post(tech, makeSite({ active_date: '2021-04-01', deactive_date: '2022-10-31' }))
    ).json();
    const current = await post(tech, makeSite({ code: old.code, active_date: '2023-04-01' }));
    expect(current.statusCode).toBe(201);
    const reopened = await put(tech, old.id, { deactive_date: null });
    expect(reopened.statusCode).toBe(409);
    expect(reopened.json().error.code).toBe('site_code_taken');
  });

  it('rejects a deactive date before the active date', async () => {
    const res = await post(
      tech,
      makeSite({ active_date: '2026-05-01', deactive_date: '2026-04-01' }),
    );
    expect(res.statusCode).toBe(422);
    expect(res.json().error.fields[0].path).toBe('deactive_date');
  });

  it("lets a technician change only the sites they created; a manager any of the agency's", async () => {
    const managers = (await post(manager, makeSite())).json();
    const denied = await put(tech, managers.id, { name: 'Not mine' });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().error.code).toBe('forbidden');
    const techs = (await post(tech, makeSite())).json();
    expect((await put(manager, techs.id, { name: 'Fixed by manager' })).statusCode).toBe(200);
  });
});

describe('deleting a site', () => {
  it('is for managers only; it sets delete_date and the site leaves the list', async () => {
    const created = (await post(tech, makeSite())).json();
    const denied = await del(tech, created.id);
    expect(denied.statusCode).toBe(403);
    const res = await del(manager, created.id);
    expect(res.statusCode).toBe(200);
    expect(res.json().delete_date).toMatch(ISO);
    const listed = (await get(manager, `/v1/site?query[id]=${created.id}`)).json();
    expect(listed).toEqual({ rows: [], count: 0 });
    expect((await put(manager, created.id, { name: 'x' })).statusCode).toBe(404);
    // Still readable by id, showing when it was deleted.
    expect((await get(manager, `/v1/site/${created.id}`)).json().delete_date).toBe(
      res.json().delete_date,
    );
    // Its code is free again.
    expect((await post(tech, makeSite({ code: created.code }))).statusCode).toBe(201);
  });
});

describe("another agency's site", () => {
  it('is never revealed: 404 on GET, PUT and DELETE, absent from lists', async () => {
    const theirs = (await post(neighbor, makeSite())).json();
    for (const res of [
      await get(manager, `/v1/site/${theirs.id}`),
      await put(manager, theirs.id, { name: 'x' }),
      await del(manager, theirs.id),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('not_found');
    }
    const listed = (await get(manager, `/v1/site?query[code]=${theirs.code}`)).json();
    expect(listed.rows.every((r: { agency: number }) => r.agency === 1)).toBe(true);
    expect((await get(manager, '/v1/site/not-a-number')).statusCode).toBe(404);
  });
});

describe('reading sites', () => {
  it('populates user, agency, coordinate_precision, region and original_location', async () => {
    const created = (await post(tech, makeSite({ coordinate_precision: 3 }))).json();
    const res = await get(
      tech,
      `/v1/site/${created.id}?populate[]=user&populate[]=agency&populate[]=coordinate_precision&populate[]=region&populate[]=original_location`,
    );
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.user).toEqual({
      id: created.user,
      username: 'demo-tech',
      name: expect.any(String),
    });
    expect(body.agency).toEqual({
      id: 1,
      code: 'DVCD',
      name: 'Demo Vector Control District',
      state_acronym: 'CA',
      region: 2,
    });
    expect(body.coordinate_precision).toEqual({
      id: 3,
      name: 'Street address (< 250 m)',
      meters: 250,
    });
    expect(body.region).toEqual({
      id: 2,
      name: 'Sacramento',
      namelsad: 'Sacramento County',
      type: 'county',
      geoid: '06067',
      parent: 1,
    });
    expect(body.original_location).toMatchObject({
      table_name: 'site',
      record_id: created.id,
      agency: 1,
      shape: created.shape,
    });
    const bad = await get(tech, `/v1/site/${created.id}?populate[]=pools`);
    expect(bad.statusCode).toBe(422);
  });

  it('lists with count before paging, sort, search, query[...] and fields[]', async () => {
    const prefix = `Elk Grove ${Date.now()}`;
    const made = [];
    for (let i = 0; i < 5; i++)
      made.push((await post(tech, makeSite({ name: `${prefix} ${i}`, elevation: 10 + i }))).json());
    const page = (
      await get(
        tech,
        `/v1/site?search=${encodeURIComponent(prefix.toLowerCase())}&searchFields[]=name&sort=-elevation&pageSize=2&page=2`,
      )
    ).json();
    expect(page.count).toBe(5);
    expect(page.rows.map((r: { name: string }) => r.name)).toEqual([`${prefix} 2`, `${prefix} 1`]);

    const ids = made.map((m) => m.id);
    const filtered = (
      await get(
        tech,
        `/v1/site?query[id][$in][0]=${ids[0]}&query[id][$in][1]=${ids[3]}&query[elevation][$gte]=12&fields[]=name`,
      )
    ).json();
    expect(filtered).toEqual({ rows: [{ id: ids[3], name: `${prefix} 3` }], count: 1 });

    const between = (
      await get(tech, `/v1/site/?query[id][$between][0]=${ids[1]}&query[id][$between][1]=${ids[2]}`)
    ).json();
    expect(between.rows.map((r: { id: number }) => r.id)).toEqual([ids[1], ids[2]]);
  });

  it('answers 422 for an unknown query field, a non-text search field and a page size over 1000', async () => {
    for (const url of [
      '/v1/site?query[colour]=red',
      '/v1/site?search=1&searchFields[]=elevation',
      '/v1/site?pageSize=1001',
      '/v1/site?query[id][$like]=1',
    ]) {
      const res = await get(tech, url);
      expect(res.statusCode).toBe(422);
      expect(res.json().error.code).toBe('validation_failed');
    }
    const malformed = await get(tech, '/v1/site?search=%ZZ');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error.code).toBe('bad_request');
  });

  it('accepts GET with Content-Type: application/json and no body', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/v1/site',
      headers: { ...t.auth(tech), 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(200);
  });
});

describe('bodies', () => {
  it('answers 400 for malformed JSON, 415 for another media type, 413 over 1 MiB, with the error body', async () => {
    const before = await siteCount();
    const malformed = await t.app.inject({
      method: 'POST',
      url: '/v1/site',
      headers: { ...t.auth(tech), 'content-type': 'application/json' },
      payload: '{"code":',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error.code).toBe('bad_request');
    const text = await t.app.inject({
      method: 'POST',
      url: '/v1/site',
      headers: { ...t.auth(tech), 'content-type': 'text/plain' },
      payload: 'code=1',
    });
    expect(text.statusCode).toBe(415);
    expect(text.json().error.code).toBe('unsupported_media_type');
    const huge = await t.app.inject({
      method: 'POST',
      url: '/v1/site',
      headers: { ...t.auth(tech), 'content-type': 'application/json' },
      payload: JSON.stringify(makeSite({ comments: 'x'.repeat(1024 * 1024 + 10) })),
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json().error.code).toBe('payload_too_large');
    const array = await post(tech, [makeSite()]);
    expect(array.statusCode).toBe(422);
    expect(await siteCount()).toBe(before);
  });
});
