/**
 * The public R client vectorsurvR (UCD-DART/vectorsurvR) against the real records service, its
 * requests replayed byte for byte as it sends them:
 *
 * - Every list is read with httr2: `request(url) |> req_headers(Authorization = "Bearer …",
 *   "Content-Type" = "application/json") |> req_url_query(...)`, a GET with no body. httr2's
 *   `query_build` curl-escapes names and values, so `populate[]` goes out as `populate%5B%5D` and
 *   `query[surv_year][$between][0]` as `query%5Bsurv_year%5D%5B%24between%5D%5B0%5D`; a NULL
 *   value (no agency_ids) leaves its parameter out.
 * - Each list is paged with `pageSize=1000&page=N` from N = 1 until a page has no rows
 *   (`if (length(df$rows) == 0) break`): a list that ignores `page` never ends (getRegions()
 *   looped forever on lookups before).
 * - getArthroCollections: `populate[]` arthropods, agency, trap, lures, location, site, then
 *   pageSize, page, `query[surv_year][$between][0|1]`, `query[agency][0]`; getPools: `type`,
 *   `populate[]` agency, test, status, trap, sex, lures, species, site, location, then pageSize,
 *   page, the same surv_year range and agency; getSites: pageSize, page, `query[agency][0]`;
 *   getRegions: pageSize, page; getAgency: pageSize, page, `populate[]=shape`.
 * - Both parsers `unnest(lures, names_sep = "_")` and select `lures_code`, `lures_description`,
 *   `lures_weight`: a populated lure must be the lure type `{id, code, description, weight}`
 *   (contract §4), not the link record with the type under `lure`.
 */
import { gunzipSync, inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../../src/server/db/database';
import { buildRecords } from '../../../src/server/records/app';
import { seedIfEmpty } from '../../../src/server/records/seed';
import { LURES, TRAP_ID } from '../../../src/server/records/seed/lookup-data';
import { collection, LOOKUP_LISTS, lureTypeIds } from '../../../src/shared';
import { openTestDatabase } from '../helpers/test-database';
import { makeCollection, SEX_ID, SPECIES_ID } from './helpers/arthropod-fixtures';

const PASSWORD = 'public-client-password';
const DEMO_AGENCY = 1;
/** A stuck list shows up as a failure, not a hung test: no list here is near this many pages. */
const MAX_PAGES = 100;

let db: Database;
let app: FastifyInstance;
let token: string;

type Row = Record<string, unknown> & { id: number };
type QueryParam = [string, string | number | null];

/** curl_escape: everything but the unreserved characters A-Z a-z 0-9 - . _ ~ is %XX-encoded. */
function curlEscape(s: string): string {
  return encodeURIComponent(s).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** httr2's query_build: NULL values dropped, names and values curl-escaped, in the given order. */
function httr2Query(params: QueryParam[]): string {
  return params
    .filter((p): p is [string, string | number] => p[1] !== null)
    .map(([k, v]) => `${curlEscape(k)}=${curlEscape(String(v))}`)
    .join('&');
}

/**
 * One GET as httr2 sends it: bearer token, Content-Type: application/json, no body. It offers
 * deflate and gzip, and libcurl decodes what comes back; so does this (the service compresses
 * answers above 1 KiB).
 */
async function httr2Get(path: string, params: QueryParam[]) {
  const res = await app.inject({
    method: 'GET',
    url: `${path}?${httr2Query(params)}`,
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: '*/*',
      'accept-encoding': 'deflate, gzip',
      'user-agent': 'httr2/1.1.2 r-curl/6.2.1 libcurl/8.12.1',
    },
  });
  const encoding = res.headers['content-encoding'];
  expect([undefined, 'gzip', 'deflate']).toContain(encoding);
  const body =
    encoding === 'gzip'
      ? gunzipSync(res.rawPayload).toString('utf8')
      : encoding === 'deflate'
        ? inflateSync(res.rawPayload).toString('utf8')
        : res.body;
  return {
    statusCode: res.statusCode,
    body,
    json: <T = Record<string, unknown>>() => JSON.parse(body) as T,
  };
}

/**
 * vectorsurvR's paging loop: page 1, 2, … with the same parameters until a page has no rows. Every
 * page must answer 200 (the client stops with "API request failed" otherwise).
 */
async function pageLikeVectorsurvR(
  path: string,
  before: QueryParam[],
  after: QueryParam[] = [],
  pageSize = 1000,
  sizeName = 'pageSize',
): Promise<{ rows: Row[]; pages: number; counts: number[] }> {
  const rows: Row[] = [];
  const counts: number[] = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    const res = await httr2Get(path, [
      ...before,
      [sizeName, String(pageSize)],
      ['page', String(page)],
      ...after,
    ]);
    expect(res.statusCode, `${path} page ${page}: ${res.body}`).toBe(200);
    const body = res.json<{ rows: Row[]; count: number }>();
    counts.push(body.count);
    if (body.rows.length === 0) return { rows, pages: page, counts };
    rows.push(...body.rows);
  }
  throw new Error(`${path} never answered an empty page in ${MAX_PAGES} pages`);
}

const ids = (rows: Row[]) => rows.map((r) => r.id);
const dbIds = async (sql: string, params: unknown[] = []) =>
  (await db.query<{ id: number }>(sql, params)).rows.map((r) => Number(r.id));

/** Active entries of each lookup list, as the contract §5 lists them (agency and region: all). */
const LOOKUP_TABLES: Record<string, string> = {
  '/v1/species': 'select id from species where active order by id',
  '/v1/sex': 'select id from sex where active order by id',
  '/v1/trap': 'select id from trap where active order by id',
  '/v1/lure': 'select id from lure where active order by id',
  '/v1/coordinate-precision': 'select id from coordinate_precision where active order by id',
  '/v1/land-usage': 'select id from land_usage where active order by id',
  '/v1/region': 'select id from region order by id',
  '/v1/agency': 'select id from agency order by id',
  '/v1/test/method': 'select id from test_method where active order by id',
  '/v1/test/target': 'select id from test_target where active order by id',
  '/v1/test/status': 'select id from test_status where active order by id',
};

const LURE_TYPE = Object.fromEntries(LURES.map((l) => [l.id, l]));
const SURV_YEARS: QueryParam[] = [
  ['query[surv_year][$between][0]', 2025],
  ['query[surv_year][$between][1]', 2026],
];
const COLLECTION_POPULATE: QueryParam[] = [
  'arthropods',
  'agency',
  'trap',
  'lures',
  'location',
  'site',
].map((p) => ['populate[]', p]);
const POOL_POPULATE: QueryParam[] = [
  'agency',
  'test',
  'status',
  'trap',
  'sex',
  'lures',
  'species',
  'site',
  'location',
].map((p) => ['populate[]', p]);

/** The lure types of each collection's active lures, from the tables. */
async function lureTypesByCollection(): Promise<Map<number, number[]>> {
  const { rows } = await db.query<{ record_id: number; lure: number }>(
    `select record_id, lure from record_lure
      where table_name = 'collection' and deactive_date is null order by id`,
  );
  const out = new Map<number, number[]>();
  for (const r of rows)
    out.set(Number(r.record_id), [...(out.get(Number(r.record_id)) ?? []), Number(r.lure)]);
  return out;
}

let twoLures: number;
let changedLures: number;

beforeAll(async () => {
  db = await openTestDatabase();
  const seeded = await seedIfEmpty(db, {
    demoPassword: PASSWORD,
    now: new Date('2026-08-20T18:00:00.000Z'),
  });
  if (!seeded.created) throw new Error('expected a fresh seed');
  app = await buildRecords({ db });
  await app.ready();
  const login = await app.inject({
    method: 'POST',
    url: '/login',
    payload: { username: 'demo-manager', password: PASSWORD },
  });
  token = login.json<{ token: string }>().token;

  const post = async (url: string, payload: Record<string, unknown>) => {
    const res = await app.inject({
      method: 'POST',
      url,
      headers: { authorization: `Bearer ${token}` },
      payload,
    });
    if (res.statusCode !== 201) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
    return res.json<{ id: number }>().id;
  };
  // A CO2 trap baited with dry ice and octenol, and a pool drawn from it.
  twoLures = await post(
    '/v1/arthropod/collection',
    makeCollection({
      collection_date: '2026-08-18',
      lures: [LURES[0].id, LURES[2].id],
      arthropods: [{ species: SPECIES_ID.cxTarsalis, sex: SEX_ID.fMixed, num_count: 40 }],
    }),
  );
  await post('/v1/arthropod/pool', {
    collection: twoLures,
    species: SPECIES_ID.cxTarsalis,
    sex: SEX_ID.fMixed,
    num_count: 25,
  });
  // A gravid trap whose lure was changed: only the current lure is the collection's.
  changedLures = await post(
    '/v1/arthropod/collection',
    makeCollection({ collection_date: '2026-08-19', trap: TRAP_ID.gravid, lures: [LURES[0].id] }),
  );
  const put = await app.inject({
    method: 'PUT',
    url: `/v1/arthropod/collection/${changedLures}`,
    headers: { authorization: `Bearer ${token}` },
    payload: { lures: [LURES[3].id] },
  });
  if (put.statusCode !== 200) throw new Error(`PUT lures: ${put.statusCode} ${put.body}`);
  // Seeding the whole demo (sites, weeks of collections, pools, tests) is slow on a busy machine.
}, 180_000);

afterAll(async () => {
  await app?.close();
  await db?.close();
});

describe('vectorsurvR pages every lookup list to its empty page', () => {
  it.each(Object.values(LOOKUP_LISTS).map((l) => l.path))(
    '%s with pageSize=1000&page=N ends with every active entry exactly once',
    async (path) => {
      // getAgency asks for the agency boundaries too; the other lookups send only the paging.
      const after: QueryParam[] = path === '/v1/agency' ? [['populate[]', 'shape']] : [];
      const { rows, pages, counts } = await pageLikeVectorsurvR(path, [], after);
      const expected = await dbIds(LOOKUP_TABLES[path]);
      expect(expected.length).toBeGreaterThan(0);
      expect(ids(rows)).toEqual(expected);
      expect(pages).toBe(2);
      // count is the total before paging, on the empty page too.
      expect(counts).toEqual([expected.length, expected.length]);
    },
  );

  it.each(Object.values(LOOKUP_LISTS).map((l) => l.path))(
    '%s split into pages of 2 (page_size) still lists every entry once and in id order',
    async (path) => {
      const { rows, pages } = await pageLikeVectorsurvR(path, [], [], 2, 'page_size');
      const expected = await dbIds(LOOKUP_TABLES[path]);
      expect(ids(rows)).toEqual(expected);
      expect(pages).toBe(Math.ceil(expected.length / 2) + 1);
    },
  );

  it('getRegions() ends and gives the state and its counties with parent, type and geoid', async () => {
    const { rows } = await pageLikeVectorsurvR('/v1/region', []);
    expect(rows.find((r) => r.namelsad === 'Sacramento County')).toMatchObject({
      type: 'county',
      geoid: '06067',
      parent: 1,
    });
  });

  it('answers a lookup pageSize over 1000 or a page of 0 with 422 naming the parameter, like every list', async () => {
    for (const [query, path] of [
      ['pageSize=1001', 'pageSize'],
      ['page_size=5000', 'page_size'],
      ['page=0', 'page'],
    ]) {
      for (const list of ['/v1/species', '/v1/region', '/v1/agency']) {
        const res = await app.inject({
          method: 'GET',
          url: `${list}?${query}`,
          headers: { authorization: `Bearer ${token}` },
        });
        expect(res.statusCode, `${list}?${query}`).toBe(422);
        expect(res.json().error).toMatchObject({
          code: 'validation_failed',
          fields: [expect.objectContaining({ path })],
        });
      }
    }
  });

  it('answers unknown or prototype names in a lookup query or sort with 422, never a 500', async () => {
    for (const query of [
      'query[constructor]=1',
      'query[toString]=x',
      'query[__proto__][$eq]=1',
      'sort=constructor',
      'sort=-hasOwnProperty',
      'query[nope]=1',
      'populate[]=region',
    ]) {
      const res = await app.inject({
        method: 'GET',
        url: `/v1/species?${query}`,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.statusCode, query).toBe(422);
      expect(res.json().error.code, query).toBe('validation_failed');
    }
  });

  it('documents the paging parameters of every lookup list in the OpenAPI document', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    for (const { path } of Object.values(LOOKUP_LISTS)) {
      const get = doc.paths[path].get;
      const names = get.parameters.map((p: { name: string }) => p.name);
      expect(names, path).toEqual(expect.arrayContaining(['page', 'pageSize']));
      expect(names.includes('populate[]'), path).toBe(path === '/v1/agency');
      expect(Object.keys(get.responses), path).toContain('422');
    }
  });
});

describe('vectorsurvR pages every record list to its empty page', () => {
  it('getSites(token) and getSites(token, agency_ids = 1) list every live site once', async () => {
    const expected = await dbIds(
      'select id from site where agency = $1 and delete_date is null order by id',
      [DEMO_AGENCY],
    );
    for (const agency of [null, DEMO_AGENCY]) {
      const { rows, pages } = await pageLikeVectorsurvR(
        '/v1/site',
        [],
        [['query[agency][0]', agency]],
      );
      expect(ids(rows)).toEqual(expected);
      expect(pages).toBe(2);
    }
    const small = await pageLikeVectorsurvR('/v1/site', [], [], 7);
    expect(ids(small.rows)).toEqual(expected);
  });

  it('getArthroCollections(token, 2025, 2026, "mosquito") lists every collection once', async () => {
    const expected = await dbIds(
      `select id from collection where agency = $1 and deactive_date is null
        and surv_year between 2025 and 2026 order by id`,
      [DEMO_AGENCY],
    );
    expect(expected.length).toBeGreaterThan(40);
    for (const agency of [null, DEMO_AGENCY]) {
      const { rows } = await pageLikeVectorsurvR('/v1/arthropod/collection', COLLECTION_POPULATE, [
        ...SURV_YEARS,
        ['query[agency][0]', agency],
      ]);
      expect(ids(rows)).toEqual(expected);
    }
    const small = await pageLikeVectorsurvR(
      '/v1/arthropod/collection',
      COLLECTION_POPULATE,
      SURV_YEARS,
      7,
    );
    expect(ids(small.rows)).toEqual(expected);
    expect(small.pages).toBe(Math.ceil(expected.length / 7) + 1);
  });

  it('getPools(token, 2025, 2026, "mosquito") lists every mosquito pool once', async () => {
    const expected = await dbIds(
      `select p.id from pool p join species s on s.id = p.species
        where p.agency = $1 and p.deactive_date is null and s.type = 'mosquito'
          and p.surv_year between 2025 and 2026 order by p.id`,
      [DEMO_AGENCY],
    );
    expect(expected.length).toBeGreaterThan(10);
    const before: QueryParam[] = [['type', 'mosquito'], ...POOL_POPULATE];
    const { rows } = await pageLikeVectorsurvR('/v1/arthropod/pool', before, [
      ...SURV_YEARS,
      ['query[agency][0]', null],
    ]);
    expect(ids(rows)).toEqual(expected);
    const small = await pageLikeVectorsurvR('/v1/arthropod/pool', before, SURV_YEARS, 4);
    expect(ids(small.rows)).toEqual(expected);
  });

  it('pool tests page the same way', async () => {
    const expected = await dbIds(
      'select id from pool_test where agency = $1 and deactive_date is null order by id',
      [DEMO_AGENCY],
    );
    expect(expected.length).toBeGreaterThan(5);
    for (const size of [1000, 3]) {
      const { rows } = await pageLikeVectorsurvR('/v1/arthropod/pool/test', [], [], size);
      expect(ids(rows)).toEqual(expected);
    }
  });
});

describe('populate[]=lures gives the lure types {id, code, description, weight}', () => {
  const lureType = (id: number) => {
    const l = LURE_TYPE[id];
    return { id: l.id, code: l.code, description: l.description, weight: l.weight };
  };

  it("getArthroCollections' lures are each collection's active lure types, and nothing else", async () => {
    const { rows } = await pageLikeVectorsurvR(
      '/v1/arthropod/collection',
      COLLECTION_POPULATE,
      SURV_YEARS,
    );
    const byCollection = await lureTypesByCollection();
    expect([...byCollection.values()].flat().length).toBeGreaterThan(40);
    for (const c of rows) {
      const lures = c.lures as Record<string, unknown>[];
      for (const l of lures)
        expect(Object.keys(l)).toEqual(['id', 'code', 'description', 'weight']);
      expect(lures, `collection ${c.id}`).toEqual((byCollection.get(c.id) ?? []).map(lureType));
    }
    const baited = rows.find((r) => r.id === twoLures)!;
    expect(baited.lures).toEqual([
      { id: 1, code: 'DRYICE', description: 'Dry ice (CO2), 1 kg block', weight: 1 },
      { id: 3, code: 'OCTENOL', description: 'Octenol (1-octen-3-ol) sachet', weight: null },
    ]);
    // The lure that was replaced is history, not one of the collection's lures.
    expect(rows.find((r) => r.id === changedLures)!.lures).toEqual([lureType(4)]);
  });

  it('flattens into lures_code, lures_description and lures_weight the way the R parser reads them', async () => {
    const res = await httr2Get('/v1/arthropod/collection', [
      ...COLLECTION_POPULATE,
      ['query[id]', twoLures],
    ]);
    const [c] = res.json<{ rows: Row[] }>().rows;
    // tidyr::unnest(lures, names_sep = "_") after fromJSON(flatten = TRUE).
    const unnested = (c.lures as Record<string, unknown>[]).map((l) =>
      Object.fromEntries(Object.entries(l).map(([k, v]) => [`lures_${k}`, v])),
    );
    expect(unnested).toEqual([
      expect.objectContaining({ lures_code: 'DRYICE', lures_weight: 1 }),
      expect.objectContaining({ lures_code: 'OCTENOL', lures_description: expect.any(String) }),
    ]);
  });

  it('one collection by id populates its lures the same way', async () => {
    const res = await httr2Get(`/v1/arthropod/collection/${twoLures}`, [['populate[]', 'lures']]);
    expect(res.statusCode).toBe(200);
    expect(res.json().lures).toEqual([lureType(1), lureType(3)]);
  });

  it("getPools' lures are their collection's lure types", async () => {
    const { rows } = await pageLikeVectorsurvR(
      '/v1/arthropod/pool',
      [['type', 'mosquito'], ...POOL_POPULATE],
      SURV_YEARS,
    );
    const byCollection = await lureTypesByCollection();
    for (const p of rows) {
      const collection = p.collection as number;
      expect(p.lures, `pool ${p.id}`).toEqual((byCollection.get(collection) ?? []).map(lureType));
    }
    const drawn = rows.find((p) => p.collection === twoLures)!;
    expect(drawn.lures).toEqual([lureType(1), lureType(3)]);
    const one = await httr2Get(`/v1/arthropod/pool/${drawn.id}`, [['populate[]', 'lures']]);
    expect(one.json().lures).toEqual([lureType(1), lureType(3)]);
  });

  it("the app's shared collection schema reads populated lures too, as the same lure type ids", async () => {
    const populated = (
      await httr2Get(`/v1/arthropod/collection/${twoLures}`, [['populate[]', 'lures']])
    ).json();
    const plain = (await httr2Get(`/v1/arthropod/collection/${twoLures}`, [])).json();
    for (const body of [populated, plain]) {
      const parsed = collection.safeParse(body);
      expect(parsed.error).toBeUndefined();
      expect(lureTypeIds(parsed.data?.lures)).toEqual([1, 3]);
    }
  });

  it('without populate[]=lures the lures stay the link records of the create response (contract §6)', async () => {
    const res = await httr2Get(`/v1/arthropod/collection/${twoLures}`, []);
    expect(res.json().lures).toEqual([
      expect.objectContaining({ table_name: 'collection', record_id: twoLures, lure: 1 }),
      expect.objectContaining({ table_name: 'collection', record_id: twoLures, lure: 3 }),
    ]);
  });
});
