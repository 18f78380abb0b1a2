import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { request as undiciRequest } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  LURES,
  METHOD_ID,
  SEX_ID,
  SPECIES_ID,
  STATUS_ID,
  TARGET_ID,
  TRAP_ID,
} from '../../../src/server/records/seed/lookup-data';
import { serveHop, startBffStack, type BffStack } from './helpers/bff-stack';
import { http } from './helpers/http';

/**
 * What a data manager takes out of Trapline, checked against what a GET of the same records
 * answers: look-alike records, edited records, text a spreadsheet would run or garble, an agency
 * with nothing yet, and records created and retired while the export pages through.
 */
let stack: BffStack;
let manager: string;
let neighbor: string;
let managerToken = '';
const LAB = 3;
const SACRAMENTO = [-121.49, 38.58];

/**
 * An HTTP hop between the BFF and the records service that, before answering the n-th page of
 * the collections export, runs `beforePage` (records changed while the export pages through).
 */
const gate = {
  pageGets: 0,
  beforePage: null as null | { page: number; run: () => Promise<void> },
};

function startMutatingHop(target: string) {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const isPage =
        req.method === 'GET' &&
        req.url?.startsWith('/v1/arthropod/collection?') &&
        req.url.includes('populate') &&
        req.url.includes('sort=id');
      if (isPage) {
        gate.pageGets += 1;
        const plan = gate.beforePage;
        if (plan && plan.page === gate.pageGets) await plan.run();
      }
      const headers = { ...req.headers };
      delete headers.host;
      delete headers.connection;
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const up = await undiciRequest(`${target}${req.url}`, {
        method: req.method as 'GET',
        headers,
        body: chunks.length ? Buffer.concat(chunks) : undefined,
      });
      const out: Record<string, string> = {};
      for (const [k, v] of Object.entries(up.headers)) {
        if (k === 'transfer-encoding' || k === 'connection' || k === 'content-length') continue;
        if (typeof v === 'string') out[k] = v;
      }
      res.writeHead(up.statusCode, out);
      res.end(Buffer.from(await up.body.arrayBuffer()));
    })();
  });
  return serveHop(server);
}

/** RFC 4180 reader (independent of the BFF's writer). */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      record.push(field);
      field = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i += 1;
    } else field += ch;
  }
  expect(quoted || field !== '' || record.length > 0, 'the file ends with a whole record').toBe(
    false,
  );
  return records;
}

function table(text: string): Array<Record<string, string>> {
  // Every CSV starts with the UTF-8 byte-order mark (for Excel); the header follows it.
  expect(text.startsWith('\uFEFF'), 'the file starts with the BOM').toBe(true);
  const [header, ...rows] = parseCsv(text.slice(1));
  for (const r of rows) expect(r.length, r.join('|')).toBe(header.length);
  return rows.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i]])));
}

/** The export as raw bytes, with its status, headers and trailers. */
async function download(file: string, cookie = manager, query = '') {
  const res = await undiciRequest(`${stack.url}/api/export/${file}${query}`, {
    headers: { cookie, 'x-csrf': '1', origin: stack.url, accept: '*/*' },
  });
  const bytes = Buffer.from(await res.body.arrayBuffer());
  return {
    status: res.statusCode,
    headers: res.headers,
    trailers: res.trailers,
    bytes,
    text: bytes.toString('utf8'),
  };
}

async function api(method: 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown) {
  const res = await stack.api(`/api/v1${path}`, { method, cookie: manager, body });
  expect(res.status, res.text).toBe(method === 'POST' ? 201 : 200);
  return res.json<{ id: number }>();
}

/** One record straight from the records service (not through the BFF). */
async function upstreamGet(path: string) {
  const res = await http(`${stack.recordsUrl}${path}`, {
    headers: { authorization: `Bearer ${managerToken}` },
  });
  expect(res.status, res.text).toBe(200);
  return res.json<Record<string, unknown>>();
}

const collection = (over: Record<string, unknown>) =>
  api('POST', '/arthropod/collection', {
    collection_date: '2025-07-08',
    num_trap: 1,
    trap: TRAP_ID.co2,
    trap_nights: 1,
    location: { shape: { type: 'Point', coordinates: SACRAMENTO }, coordinate_precision: 1 },
    arthropods: [{ species: SPECIES_ID.cxTarsalis, sex: SEX_ID.fMixed, num_count: 12 }],
    ...over,
  });

beforeAll(async () => {
  stack = await startBffStack({ hop: startMutatingHop, bff: { exportMinPageSize: 1 } });
  manager = await stack.signIn('demo-manager');
  neighbor = await stack.signIn('neighbor-manager');
  managerToken = await stack.records.login('demo-manager');
}, 120_000);

afterAll(async () => {
  await stack?.close();
});

describe('an agency with nothing yet', () => {
  it('gets header-only files (and its Zero Site), not an error', async () => {
    for (const file of ['collections.csv', 'pools.csv', 'pool-tests.csv']) {
      const res = await download(file, neighbor);
      expect(res.status, res.text).toBe(200);
      const records = parseCsv(res.text);
      expect(records, file).toHaveLength(1);
      expect(records[0][0], file).toMatch(/_id$/);
      expect(res.trailers['x-export-rows'], file).toBe('0');
    }
    const sites = await download('sites.csv', neighbor);
    expect(table(sites.text).map((s) => s.code)).toEqual(['000000']);
    const geo = await download('sites.geojson', neighbor);
    expect(JSON.parse(geo.text)).toMatchObject({ type: 'FeatureCollection' });
  });
});

/** The columns README.md documents, in its order: scripts read them by position. */
const DOCUMENTED_COLUMNS: Record<string, string> = {
  'collections.csv':
    'collection_id, collection_num, surv_year, collection_date, site_id, site_code, site_name, longitude, latitude, trap_id, trap, num_trap, trap_nights, trap_problem, lures, identified_by, comments, abundance_id, species_id, species, sex_id, sex, count, add_date, updated',
  'pools.csv':
    'pool_id, pool_num, surv_year, collection_date, collection_id, site_id, site_code, species_id, species, sex_id, sex, num_count, trap, lures, primary_source_bit, primary_source, longitude, latitude, comments, add_date, updated',
  'pool-tests.csv':
    'test_id, pool_id, pool_num, collection_id, collection_date, species, sex, pool_count, test_date, method, target, result, value, test_agency, comments, add_date, updated',
  'sites.csv':
    'site_id, code, name, longitude, latitude, coordinate_precision, active_date, deactive_date, address_1, address_2, city, postal_code, region, elevation, site_population, land_usage, land_usage_custom, revision_comments, comments, add_date, updated',
};

describe('the columns', () => {
  it('are the documented ones, in the documented order, in every file', async () => {
    for (const [file, columns] of Object.entries(DOCUMENTED_COLUMNS)) {
      const res = await download(file);
      expect(res.text.slice(0, res.text.indexOf('\r\n')), file).toBe(
        `\uFEFF${columns.replace(/, /g, ',')}`,
      );
    }
    const geo = JSON.parse((await download('sites.geojson')).text) as {
      features: Array<{ properties: Record<string, unknown> }>;
    };
    expect(Object.keys(geo.features[0].properties)).toEqual(
      DOCUMENTED_COLUMNS['sites.csv']
        .split(', ')
        .filter((c) => c !== 'longitude' && c !== 'latitude'),
    );
  });
});

describe('text and numbers as a spreadsheet reads them', () => {
  it('keeps accents and emoji as UTF-8, guards every formula lead, and keeps negative numbers numbers', async () => {
    const name = 'Río Linda — Piñon Slough 🦟';
    const site = await api('POST', '/site', {
      code: '620001',
      name,
      coordinate_precision: 1,
      elevation: -5.5,
      shape: { type: 'Point', coordinates: [-121.4912345, 38.58] },
    });
    const comments = {
      minus: '-ve on the second look',
      at: '@lab please recount',
      tab: '\t=1+1',
      cr: '\r=1+1',
      accent: 'Récolté près du fossé, «Culex» ñ',
    };
    const ids: Record<string, number> = {};
    for (const [key, comment] of Object.entries(comments)) {
      ids[key] = (
        await collection({
          site: site.id,
          location: undefined,
          comments: comment,
          identified_by: '=2+3',
        })
      ).id;
    }
    const sites = await download('sites.csv');
    expect(sites.headers['content-type']).toBe('text/csv; charset=utf-8');
    const row = table(sites.text).find((s) => s.site_id === String(site.id))!;
    expect(row.name).toBe(name);
    expect(row.elevation).toBe('-5.5');
    expect(row.longitude).toBe('-121.4912345');
    expect(row.latitude).toBe('38.58');

    const rows = table((await download('collections.csv')).text);
    for (const [key, comment] of Object.entries(comments)) {
      const got = rows.find((r) => r.collection_id === String(ids[key]))!;
      const stored = (await upstreamGet(`/v1/arthropod/collection/${ids[key]}`)).comments as string;
      expect(got.comments, key).toBe(/^[=+\-@\t\r]/.test(stored) ? `'${stored}` : stored);
      if (key === 'accent') expect(got.comments).toBe(comment);
      expect(got.identified_by).toBe("'=2+3");
      expect(got.site_name).toBe(name);
      expect(got.longitude).toBe('-121.4912345');
    }
  });
});

/**
 * The cells a spreadsheet makes of a CSV file when it splits on several separators at once
 * (LibreOffice's import offers comma, semicolon and tab together; Excel takes the list separator
 * of the computer's region, ";" in much of Europe): a quote opens a quoted field only at the
 * start of a cell, as in LibreOffice and Excel.
 */
function spreadsheetCells(text: string, separators: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  let start = true;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (start && ch === '"') {
      quoted = true;
      start = false;
    } else if (separators.includes(ch) || ch === '\n') {
      cells.push(cell);
      cell = '';
      start = true;
    } else if (ch !== '\r') {
      cell += ch;
      start = false;
    }
  }
  cells.push(cell);
  return cells;
}

describe('a formula after a separator other than the comma', () => {
  it('is inside one quoted cell, so no spreadsheet cell starts with = + - @', async () => {
    const payloads = [
      "Trap fine;=cmd|' /C calc'!A0;",
      "Trap fine\t=cmd|' /C calc'!A0\tok",
      'Checked; -2+3 left; @SUM(1)',
      '\t=1+1',
    ];
    const ids: number[] = [];
    for (const comments of payloads) ids.push((await collection({ comments })).id);
    const res = await download('collections.csv');
    const rows = table(res.text);
    for (const [i, id] of ids.entries()) {
      const stored = (await upstreamGet(`/v1/arthropod/collection/${id}`)).comments as string;
      const shown = /^[=+\-@\t\r]/.test(stored) ? `'${stored}` : stored;
      expect(rows.find((r) => r.collection_id === String(id))?.comments, payloads[i]).toBe(shown);
    }
    for (const separators of [',;\t', ',;', ',\t', ',']) {
      // A number such as -121.49 is a number to a spreadsheet, not a formula.
      const lead = spreadsheetCells(res.text, separators).filter(
        (c) => /^[=+\-@]/.test(c) && Number.isNaN(Number(c)),
      );
      expect(lead, JSON.stringify(separators)).toEqual([]);
    }
  });
});

describe('every row as a GET answers the record', () => {
  it('shows an edited collection with its current catch and lures only', async () => {
    const c = await collection({
      lures: [LURES[0].id, LURES[1].id],
      arthropods: [
        { species: SPECIES_ID.cxTarsalis, sex: SEX_ID.fMixed, num_count: 12 },
        { species: SPECIES_ID.cxPipiens, sex: SEX_ID.male, num_count: 3 },
      ],
      collection_date: '2025-08-01',
    });
    // Its look-alike twin, untouched.
    const twin = await collection({
      lures: [LURES[0].id, LURES[1].id],
      arthropods: [
        { species: SPECIES_ID.cxTarsalis, sex: SEX_ID.fMixed, num_count: 12 },
        { species: SPECIES_ID.cxPipiens, sex: SEX_ID.male, num_count: 3 },
      ],
      collection_date: '2025-08-01',
    });
    await api('PUT', `/arthropod/collection/${c.id}`, {
      lures: [LURES[1].id],
      arthropods: [{ species: SPECIES_ID.cxTarsalis, sex: SEX_ID.fMixed, num_count: 40 }],
    });
    const rows = table((await download('collections.csv')).text);
    for (const id of [c.id, twin.id]) {
      const got = await upstreamGet(
        `/v1/arthropod/collection/${id}?populate[]=arthropods&populate[]=lures&populate[]=site&populate[]=trap`,
      );
      const arthropods = got.arthropods as Array<{
        id: number;
        num_count: number;
        species: { full_name: string };
        sex: { name: string };
      }>;
      const lures = got.lures as Array<{ code: string }>;
      const mine = rows.filter((r) => r.collection_id === String(id));
      expect(
        mine.map((r) => [r.abundance_id, r.species, r.sex, r.count, r.lures, r.updated]),
        String(id),
      ).toEqual(
        arthropods
          .sort((a, b) => a.id - b.id)
          .map((a) => [
            String(a.id),
            a.species.full_name,
            a.sex.name,
            String(a.num_count),
            lures.map((l) => l.code).join('; '),
            got.updated,
          ]),
      );
      expect(mine[0]).toMatchObject({
        collection_date: got.collection_date,
        surv_year: String(got.surv_year),
        collection_num: String(got.collection_num),
      });
    }
  });
});

describe('records created and retired while the export pages through', () => {
  it('holds each record that was there throughout exactly once, and none retired before its page', async () => {
    // Same site, day and trap, the same catch: only the ids tell them apart.
    const made: number[] = [];
    for (let i = 0; i < 8; i++) made.push((await collection({ collection_date: '2025-09-01' })).id);
    const pool = await api('POST', '/arthropod/pool', {
      collection: made[6],
      species: SPECIES_ID.cxTarsalis,
      sex: SEX_ID.fMixed,
      num_count: 12,
    });
    await api('POST', '/arthropod/pool/test', {
      pool: pool.id,
      method: METHOD_ID.rtPcr,
      target: TARGET_ID.wnv,
      status: STATUS_ID.negative,
      test_date: '2025-09-02',
      test_agency: LAB,
    });
    const before = table((await download('collections.csv')).text);
    const all = [...new Set(before.map((r) => Number(r.collection_id)))];
    let added = 0;
    gate.pageGets = 0;
    gate.beforePage = {
      page: 3,
      run: async () => {
        // Meanwhile: one already written is retired, one not yet read is retired, one is added.
        const del = (id: number) =>
          http(`${stack.recordsUrl}/v1/arthropod/collection/${id}`, {
            method: 'DELETE',
            headers: { authorization: `Bearer ${managerToken}` },
          });
        expect((await del(all[0])).status).toBe(200);
        expect((await del(made[6])).status).toBe(200);
        const res = await http(`${stack.recordsUrl}/v1/arthropod/collection`, {
          method: 'POST',
          headers: { authorization: `Bearer ${managerToken}` },
          body: {
            collection_date: '2025-09-01',
            num_trap: 1,
            trap: TRAP_ID.co2,
            trap_nights: 1,
            location: {
              shape: { type: 'Point', coordinates: SACRAMENTO },
              coordinate_precision: 1,
            },
            arthropods: [{ species: SPECIES_ID.cxTarsalis, sex: SEX_ID.fMixed, num_count: 12 }],
          },
        });
        expect(res.status, res.text).toBe(201);
        added = res.json<{ id: number }>().id;
      },
    };
    const during = await download('collections.csv', manager, '?page_size=2');
    gate.beforePage = null;
    expect(during.status).toBe(200);
    const rows = table(during.text);
    expect(during.trailers['x-export-rows']).toBe(String(rows.length));
    const got = rows.map((r) => `${r.collection_id}:${r.abundance_id}`);
    expect(new Set(got).size, 'no row twice').toBe(got.length);
    const ids = new Set(rows.map((r) => Number(r.collection_id)));
    // Written before it was retired (page 1), so it stays in this file; never dropped mid-way.
    expect(ids.has(all[0])).toBe(true);
    expect(ids.has(made[6])).toBe(false);
    expect(ids.has(added)).toBe(true);
    for (const id of all.slice(1)) if (id !== made[6]) expect(ids.has(id), String(id)).toBe(true);
    // Afterwards, the pool and the test of the retired collection have left their files too.
    const pools = table((await download('pools.csv')).text);
    expect(pools.some((p) => p.pool_id === String(pool.id))).toBe(false);
    const tests = table((await download('pool-tests.csv')).text);
    expect(tests.some((t) => t.pool_id === String(pool.id))).toBe(false);
  });
});
