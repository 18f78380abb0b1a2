import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request as undiciRequest } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningBff } from '../../../src/server/bff/app';
import {
  LURES,
  METHOD_ID,
  SEX_ID,
  SEXES,
  SPECIES,
  SPECIES_ID,
  STATUS_ID,
  TARGET_ID,
  TRAP_ID,
} from '../../../src/server/records/seed/lookup-data';
import { startBffStack, type BffStack } from './helpers/bff-stack';
import { http } from './helpers/http';

let stack: BffStack;
let manager: string;
let neighbor: string;
const LAB = 3;
const SACRAMENTO = [-121.49, 38.58];

/** Site names a spreadsheet or a naive CSV writer gets wrong. */
const TRICKY = {
  comma: 'Putah Creek, North',
  quotes: 'The "Big" Slough',
  newline: 'Line one\nline two',
  crlf: 'Row\r\nbreak',
  formula: '=HYPERLINK("http://evil.example","x")',
  plus: '+1 555 0100',
  minus: '-cmd',
  at: '@SUM(A1)',
  tab: '\tTabbed',
} as const;

async function post(cookie: string, path: string, body: Record<string, unknown>) {
  const res = await stack.api(`/api/v1${path}`, { method: 'POST', cookie, body });
  expect(res.status, res.text).toBe(201);
  return res.json<{ id: number }>();
}

let codeSeq = 510_000;
const site = (cookie: string, name: string, over: Record<string, unknown> = {}) =>
  post(cookie, '/site', {
    code: String((codeSeq += 1)),
    name,
    coordinate_precision: 1,
    shape: { type: 'Point', coordinates: SACRAMENTO },
    ...over,
  });

/**
 * RFC 4180 reader written for this test (independent of the BFF's writer): quoted fields may hold
 * commas, doubled quotes and line breaks; records end with CRLF. `complete` is false when the
 * text stops inside a record (a stream read so far).
 */
function parseCsv(text: string): { records: string[][]; complete: boolean } {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
      } else if (ch === '"') {
        quoted = false;
        i += 1;
      } else {
        field += ch;
        i += 1;
      }
    } else if (ch === '"') {
      quoted = true;
      i += 1;
    } else if (ch === ',') {
      record.push(field);
      field = '';
      i += 1;
    } else if (ch === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i += 2;
    } else {
      field += ch;
      i += 1;
    }
  }
  return { records, complete: !quoted && field === '' && record.length === 0 };
}

/** A CSV file as objects keyed by its header. */
function table(text: string): Array<Record<string, string>> {
  // Every CSV starts with the UTF-8 byte-order mark (for Excel; csv-bom.test.ts): a streamed
  // read keeps it, undici's body.text() drops it.
  const { records, complete } = parseCsv(text.replace(/^\uFEFF/, ''));
  expect(complete, 'the file ends with a complete record').toBe(true);
  const [header, ...rows] = records;
  for (const r of rows) expect(r.length, r.join('|')).toBe(header.length);
  return rows.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i]])));
}

async function download(path: string, cookie = manager) {
  const res = await stack.api(path, { cookie, headers: { accept: '*/*' } });
  expect(res.status, res.text).toBe(200);
  return res;
}

/** The agency's records read straight from the records service (not through the BFF). */
async function upstream<T = Record<string, unknown>>(username: string, path: string) {
  const token = await stack.records.login(username);
  const res = await http(`${stack.recordsUrl}${path}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.status, res.text).toBe(200);
  return res.json<{ rows: T[]; count: number }>();
}

const ids = {
  site: 0,
  trickySites: {} as Record<keyof typeof TRICKY, number>,
  twins: [] as number[],
  empty: 0,
  twinPools: [] as number[],
  retested: 0,
  neighborSite: 0,
};

beforeAll(async () => {
  stack = await startBffStack({ bff: { exportMinPageSize: 1 } });
  manager = await stack.signIn('demo-manager');
  neighbor = await stack.signIn('neighbor-manager');
  ids.site = (await site(manager, 'Twin Oaks')).id;
  for (const [key, name] of Object.entries(TRICKY)) {
    ids.trickySites[key as keyof typeof TRICKY] = (await site(manager, name)).id;
  }
  // Look-alikes: two collections at one site on one day, one trap type, the same catch.
  const catchOf = [
    { species: SPECIES_ID.cxTarsalis, sex: SEX_ID.fMixed, num_count: 30 },
    { species: SPECIES_ID.cxPipiens, sex: SEX_ID.male, num_count: 4 },
  ];
  for (let i = 0; i < 2; i++) {
    const c = await post(manager, '/arthropod/collection', {
      site: ids.site,
      collection_date: '2025-07-08',
      num_trap: 1,
      trap: TRAP_ID.co2,
      trap_nights: 1,
      lures: [LURES[0].id, LURES[1].id],
      comments: 'same trap, same catch',
      arthropods: catchOf,
    });
    ids.twins.push(c.id);
  }
  // An empty trap: no abundance rows, still one line in the file.
  ids.empty = (
    await post(manager, '/arthropod/collection', {
      site: ids.site,
      collection_date: '2025-07-09',
      num_trap: 1,
      trap: TRAP_ID.gravid,
      trap_nights: 1,
      comments: TRICKY.formula,
      arthropods: [],
    })
  ).id;
  // Equal pools from one collection, and same-day re-tests of one pool.
  for (let i = 0; i < 2; i++) {
    const p = await post(manager, '/arthropod/pool', {
      collection: ids.twins[0],
      species: SPECIES_ID.cxTarsalis,
      sex: SEX_ID.fMixed,
      num_count: 10,
    });
    ids.twinPools.push(p.id);
  }
  ids.retested = ids.twinPools[0];
  for (let i = 0; i < 2; i++) {
    await post(manager, '/arthropod/pool/test', {
      pool: ids.retested,
      method: METHOD_ID.rtPcr,
      target: TARGET_ID.wnv,
      status: STATUS_ID.negative,
      test_date: '2025-07-10',
      test_agency: LAB,
    });
  }
  // Enough collections for several pages at page_size=2.
  for (let i = 0; i < 8; i++) {
    await post(manager, '/arthropod/collection', {
      site: ids.site,
      collection_date: `2025-08-${String(i + 1).padStart(2, '0')}`,
      num_trap: 1,
      trap: TRAP_ID.co2,
      trap_nights: 1,
      arthropods: [{ species: SPECIES_ID.aeVexans, sex: SEX_ID.fGravid, num_count: i + 1 }],
    });
  }
  // The neighbour's records, which the manager's files must never hold.
  ids.neighborSite = (await site(neighbor, 'NEIGHBOR-ONLY site')).id;
  const nc = await post(neighbor, '/arthropod/collection', {
    site: ids.neighborSite,
    collection_date: '2025-07-08',
    num_trap: 1,
    trap: TRAP_ID.co2,
    trap_nights: 1,
    comments: 'NEIGHBOR-ONLY',
    arthropods: [{ species: SPECIES_ID.cxTarsalis, sex: SEX_ID.fMixed, num_count: 30 }],
  });
  const np = await post(neighbor, '/arthropod/pool', {
    collection: nc.id,
    species: SPECIES_ID.cxTarsalis,
    sex: SEX_ID.fMixed,
    num_count: 10,
    comments: 'NEIGHBOR-ONLY',
  });
  await post(neighbor, '/arthropod/pool/test', {
    pool: np.id,
    method: METHOD_ID.rtPcr,
    target: TARGET_ID.wnv,
    status: STATUS_ID.confirmed,
    test_date: '2025-07-10',
    test_agency: LAB,
    comments: 'NEIGHBOR-ONLY',
  });
}, 120_000);

afterAll(async () => {
  await stack?.close();
});

type UpCollection = {
  id: number;
  site: number | null;
  collection_date: string;
  arthropods: Array<{ id: number; species: number; sex: number; num_count: number }>;
};

describe('GET /api/export/collections.csv', () => {
  it('holds every abundance row of every collection exactly once, and one line per empty trap', async () => {
    const res = await download('/api/export/collections.csv');
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    const day = new Date().toISOString().slice(0, 10);
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="trapline-demo-vector-control-district-collections-${day}.csv"`,
    );
    const rows = table(res.text);
    const up = await upstream<UpCollection>(
      'demo-manager',
      '/v1/arthropod/collection?pageSize=1000&populate[]=site',
    );
    const expected = up.rows.flatMap((c) =>
      c.arthropods.length === 0 ? [`${c.id}:`] : c.arthropods.map((a) => `${c.id}:${a.id}`),
    );
    const got = rows.map((r) => `${r.collection_id}:${r.abundance_id}`);
    expect(got.sort()).toEqual(expected.sort());
    expect(new Set(got).size).toBe(got.length);

    // The look-alike twins: each its own two rows, with names beside the ids.
    for (const id of ids.twins) {
      const mine = rows.filter((r) => r.collection_id === String(id));
      expect(mine.map((r) => [r.species, r.sex, r.count])).toEqual([
        ['Culex tarsalis', 'F-Mixed', '30'],
        ['Culex pipiens', 'Male', '4'],
      ]);
      expect(mine[0]).toMatchObject({
        site_id: String(ids.site),
        site_name: 'Twin Oaks',
        trap: 'CO2',
        lures: `${LURES[0].code}; ${LURES[1].code}`,
        collection_date: '2025-07-08T00:00:00.000Z',
        longitude: String(SACRAMENTO[0]),
        latitude: String(SACRAMENTO[1]),
        species_id: String(SPECIES_ID.cxTarsalis),
        sex_id: String(SEX_ID.fMixed),
      });
      expect(mine[0].site_code).toMatch(/^\d{6}$/);
    }
    const empty = rows.filter((r) => r.collection_id === String(ids.empty));
    expect(empty).toHaveLength(1);
    expect(empty[0]).toMatchObject({ species: '', sex: '', count: '', abundance_id: '' });
    // The formula guard: the comment is text in a spreadsheet, not a formula.
    expect(empty[0].comments).toBe(`'${TRICKY.formula}`);
    expect(res.text).not.toContain('NEIGHBOR-ONLY');
    // Column order is fixed: scripts read by position.
    expect(parseCsv(res.text).records[0].slice(0, 4)).toEqual([
      'collection_id',
      'collection_num',
      'surv_year',
      'collection_date',
    ]);
  });

  it('reads several upstream pages by key and writes the same file as with whole pages', async () => {
    const whole = await download('/api/export/collections.csv');
    const before = stack.proxy.seen.length;
    const paged = await download('/api/export/collections.csv?page_size=2');
    const pages = stack.proxy.seen
      .slice(before)
      .filter((r) => r.path === '/v1/arthropod/collection');
    const n = table(whole.text).length;
    expect(n).toBeGreaterThan(10);
    // At least one page per two collections (11+ collections: 6+ pages), all asked by key.
    expect(pages.length).toBeGreaterThanOrEqual(6);
    expect(pages.slice(1).every((r) => /query%5Bid%5D%5B%24gt%5D=\d+/.test(r.target))).toBe(true);
    expect(paged.text).toBe(whole.text);
  });
});

describe('GET /api/export/sites.csv and sites.geojson', () => {
  it('quotes commas, quotes and line breaks and guards formulas (RFC 4180)', async () => {
    const res = await download('/api/export/sites.csv');
    const rows = table(res.text);
    const byId = new Map(rows.map((r) => [r.site_id, r]));
    const up = await upstream('demo-manager', '/v1/site?pageSize=1000');
    const stored = new Map(up.rows.map((s) => [s.id as number, s.name as string]));
    const guarded = new Set(['formula', 'plus', 'minus', 'at']);
    for (const [key, name] of Object.entries(TRICKY)) {
      const id = ids.trickySites[key as keyof typeof TRICKY];
      const row = byId.get(String(id));
      if (key === 'tab') {
        // The service trims names; whatever it kept, a leading tab would have been guarded.
        const kept = stored.get(id)!;
        expect(row?.name, key).toBe(kept.startsWith('\t') ? `'${kept}` : kept);
        continue;
      }
      expect(row?.name, key).toBe(guarded.has(key) ? `'${name}` : name);
    }
    expect(res.text).toContain('"The ""Big"" Slough"');
    expect(res.text).toContain('"Putah Creek, North"');
    expect(res.text).toContain('"Line one\nline two"');
    expect(rows.map((r) => Number(r.site_id)).sort((a, b) => a - b)).toEqual(
      up.rows.map((s) => s.id as number).sort((a, b) => a - b),
    );
    expect(byId.get(String(ids.site))).toMatchObject({
      name: 'Twin Oaks',
      longitude: '-121.49',
      latitude: '38.58',
      coordinate_precision: expect.stringMatching(/GPS/),
    });
    expect(res.text).not.toContain('NEIGHBOR-ONLY');
  });

  it('is a valid FeatureCollection with [longitude, latitude] points, one feature per site', async () => {
    const res = await download('/api/export/sites.geojson');
    expect(res.headers['content-type']).toMatch(/^application\/geo\+json/);
    expect(res.headers['content-disposition']).toMatch(/-sites-\d{4}-\d{2}-\d{2}\.geojson"$/);
    const doc = JSON.parse(res.text) as {
      type: string;
      features: Array<{
        type: string;
        id: number;
        geometry: { type: string; coordinates: number[] };
        properties: Record<string, unknown>;
      }>;
    };
    expect(doc.type).toBe('FeatureCollection');
    const up = await upstream('demo-manager', '/v1/site?pageSize=1000');
    expect(doc.features.map((f) => f.id).sort((a, b) => a - b)).toEqual(
      up.rows.map((s) => s.id as number).sort((a, b) => a - b),
    );
    const twin = doc.features.find((f) => f.id === ids.site)!;
    expect(twin.type).toBe('Feature');
    expect(twin.geometry).toEqual({ type: 'Point', coordinates: SACRAMENTO });
    expect(twin.properties).toMatchObject({ site_id: ids.site, name: 'Twin Oaks' });
    expect(twin.properties).not.toHaveProperty('longitude');
    // Names are kept as they were typed: the formula guard is for spreadsheets (CSV) only.
    const formula = doc.features.find((f) => f.id === ids.trickySites.formula)!;
    expect(formula.properties.name).toBe(TRICKY.formula);
    expect(res.text).not.toContain('NEIGHBOR-ONLY');
  });
});

describe('GET /api/export/pools.csv and pool-tests.csv', () => {
  it('lists equal pools and same-day re-tests each once, with names', async () => {
    const pools = table((await download('/api/export/pools.csv')).text);
    const twins = pools.filter((p) => ids.twinPools.includes(Number(p.pool_id)));
    expect(twins).toHaveLength(2);
    for (const p of twins) {
      expect(p).toMatchObject({
        collection_id: String(ids.twins[0]),
        species: SPECIES[0].full_name,
        sex: SEXES[0].name,
        num_count: '10',
        trap: 'CO2',
        collection_date: '2025-07-08T00:00:00.000Z',
      });
    }
    const upPools = await upstream('demo-manager', '/v1/arthropod/pool?pageSize=1000');
    expect(pools.map((p) => Number(p.pool_id)).sort()).toEqual(
      upPools.rows.map((p) => p.id as number).sort(),
    );

    const tests = table((await download('/api/export/pool-tests.csv')).text);
    const retests = tests.filter((t) => t.pool_id === String(ids.retested));
    expect(retests).toHaveLength(2);
    expect(new Set(retests.map((t) => t.test_id)).size).toBe(2);
    for (const t of retests) {
      expect(t).toMatchObject({
        test_date: '2025-07-10T00:00:00.000Z',
        method: 'RT-PCR',
        target: 'WNV',
        result: 'Negative',
        species: 'Culex tarsalis',
        collection_id: String(ids.twins[0]),
      });
      expect(t.test_agency).not.toBe('');
    }
    const upTests = await upstream('demo-manager', '/v1/arthropod/pool/test?pageSize=1000');
    expect(tests.map((t) => Number(t.test_id)).sort()).toEqual(
      upTests.rows.map((t) => t.id as number).sort(),
    );
  });

  it("gives the neighbour only the neighbour's records", async () => {
    for (const file of ['collections.csv', 'pools.csv', 'pool-tests.csv']) {
      const rows = table((await download(`/api/export/${file}`, neighbor)).text);
      expect(rows.length, file).toBe(1);
      expect(rows[0].comments, file).toBe('NEIGHBOR-ONLY');
    }
  });
});

describe('the summary and the rules every /api route keeps', () => {
  it('GET /api/export/summary gives the upstream totals', async () => {
    const res = await stack.api('/api/export/summary', { cookie: manager });
    expect(res.status, res.text).toBe(200);
    const sites = await upstream('demo-manager', '/v1/site?pageSize=1');
    const collections = await upstream('demo-manager', '/v1/arthropod/collection?pageSize=1');
    const tests = await upstream('demo-manager', '/v1/arthropod/pool/test?pageSize=1');
    expect(res.json()).toEqual({
      sites: sites.count,
      collections: collections.count,
      pools: 2,
      pool_tests: tests.count,
    });
  });

  it('needs a session (401) and X-CSRF (403); bad parameters are a 422 naming them', async () => {
    const none = await stack.api('/api/export/collections.csv');
    expect(none.status).toBe(401);
    expect(none.json()).toMatchObject({ error: { code: 'unauthenticated' } });
    const csrf = await stack.api('/api/export/collections.csv', { cookie: manager, csrf: false });
    expect(csrf.status).toBe(403);
    for (const q of ['page_size=0', 'page_size=1001', 'page_size=x', 'pagesize=2']) {
      const bad = await stack.api(`/api/export/pools.csv?${q}`, { cookie: manager });
      expect(bad.status, q).toBe(422);
      const field = q.split('=')[0];
      expect(bad.json(), q).toMatchObject({
        error: { code: 'validation_failed', fields: [{ path: field }] },
      });
    }
    const summary = await stack.api('/api/export/summary?x=1', { cookie: manager });
    expect(summary.status).toBe(422);
  });
});

/**
 * A real HTTP proxy between a second BFF and the records service that can hold or break the nth
 * page of the collections list (the n-th GET of it), at the network edge.
 */
async function startPageGate(target: string) {
  let pageGets = 0;
  let plan: { page: number; action: 'hold' | 'fail' } | null = null;
  let release: () => void = () => undefined;
  let onHeld: () => void = () => undefined;
  const held = new Promise<void>((r) => (onHeld = r));
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const isPage = req.method === 'GET' && req.url?.startsWith('/v1/arthropod/collection?');
      if (isPage && req.url?.includes('populate')) {
        pageGets += 1;
        if (plan && plan.page === pageGets) {
          if (plan.action === 'fail') {
            req.socket.destroy();
            return;
          }
          onHeld();
          await new Promise<void>((r) => (release = r));
        }
      }
      const headers = { ...req.headers };
      delete headers.host;
      delete headers.connection;
      const up = await undiciRequest(`${target}${req.url}`, {
        method: req.method as 'GET',
        headers,
      });
      // The body passes on as it came, so its Content-Encoding (the BFF asks for br/gzip) too.
      const encoding = up.headers['content-encoding'];
      res.writeHead(up.statusCode, {
        'content-type': String(up.headers['content-type'] ?? ''),
        ...(typeof encoding === 'string' ? { 'content-encoding': encoding } : {}),
      });
      res.end(Buffer.from(await up.body.arrayBuffer()));
    })();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    plan: (p: typeof plan) => {
      plan = p;
      pageGets = 0;
    },
    pageGets: () => pageGets,
    held,
    release: () => release(),
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

describe('streaming', () => {
  let gate: Awaited<ReturnType<typeof startPageGate>>;
  let sibling: RunningBff;
  beforeAll(async () => {
    gate = await startPageGate(stack.recordsUrl);
    sibling = await stack.startSibling({ upstreamUrl: gate.url });
  });
  afterAll(async () => {
    gate.release();
    await sibling?.close();
    await gate?.close();
  });

  const open = (path: string) =>
    undiciRequest(`${sibling.url}${path}`, {
      headers: { cookie: manager, 'x-csrf': '1', origin: sibling.url },
    });

  it('sends the first pages while a later upstream page is still unanswered, then the rest and the row count', async () => {
    const up = await upstream<UpCollection>(
      'demo-manager',
      '/v1/arthropod/collection?pageSize=1000',
    );
    gate.plan({ page: 3, action: 'hold' });
    const res = await open('/api/export/collections.csv?page_size=2');
    expect(res.statusCode).toBe(200);
    const firstFour = up.rows.slice(0, 4).map((c) => String(c.id));
    let text = '';
    const chunks = res.body[Symbol.asyncIterator]();
    // Read until the rows of pages 1 and 2 are all in (the reply's first bytes).
    for (;;) {
      const next = await chunks.next();
      expect(next.done, 'the body ended before page 3 was answered').toBeFalsy();
      text += String(next.value);
      const seen = new Set(
        parseCsv(text)
          .records.slice(1)
          .map((r) => r[0]),
      );
      if (firstFour.every((id) => seen.has(id))) break;
    }
    await gate.held;
    // Page 3 is held at the gate: nothing of it (or after it) can be in the file yet.
    const sofar = new Set(
      parseCsv(text)
        .records.slice(1)
        .map((r) => r[0]),
    );
    expect([...sofar].sort()).toEqual([...firstFour].sort());
    expect(gate.pageGets()).toBe(3);
    gate.release();
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) {
      text += String(next.value);
    }
    const rows = table(text);
    expect(new Set(rows.map((r) => r.collection_id)).size).toBe(up.rows.length);
    expect(res.trailers['x-export-rows']).toBe(String(rows.length));
  });

  it('aborts the download when the upstream fails mid-stream: no complete-looking file', async () => {
    gate.plan({ page: 3, action: 'fail' });
    const res = await open('/api/export/collections.csv?page_size=2');
    expect(res.statusCode).toBe(200);
    let text = '';
    const read = (async () => {
      for await (const chunk of res.body) text += String(chunk);
    })();
    await expect(read).rejects.toThrow();
    expect(res.trailers['x-export-rows']).toBeUndefined();
    // What did arrive is at most the first two pages' collections (pages 1 and 2 of page_size=2).
    const up = await upstream<UpCollection>(
      'demo-manager',
      '/v1/arthropod/collection?pageSize=1000',
    );
    const firstFour = new Set(up.rows.slice(0, 4).map((c) => String(c.id)));
    const got = parseCsv(text).records.slice(1);
    expect(got.every((r) => firstFour.has(r[0]))).toBe(true);
    expect(up.rows.length).toBeGreaterThan(4);
  });

  it('answers a failure before the first byte with the error status and body', async () => {
    gate.plan({ page: 1, action: 'fail' });
    const res = await open('/api/export/collections.csv');
    expect(res.statusCode).toBe(502);
    expect(await res.body.json()).toMatchObject({ error: { code: 'upstream_unavailable' } });
    gate.plan(null);
  });
});
