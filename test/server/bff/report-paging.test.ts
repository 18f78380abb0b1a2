import { createServer, type Server } from 'node:http';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEX_ID, SPECIES_ID, TRAP_ID } from '../../../src/server/records/seed/lookup-data';
import { serveHop, startBffStack, type BffStack } from './helpers/bff-stack';
import { http } from './helpers/http';

/**
 * The reports read the agency's whole lists from the upstream, a thousand rows a page. Records
 * retired or added by other clients while those pages are read must not make a live record
 * fall between two pages (a week's catch silently missing from a report) or be read twice.
 */
let stack: BffStack;
let manager: string;
let recordsToken: string;
/** Ids of the seeded collections, oldest first. */
let ids: number[];

/** One more than the upstream's page: the reports need a second page. */
const JULY_9 = 1000;

async function seedCollections(stack: BffStack): Promise<number[]> {
  const db = stack.records.db;
  // Week 28 of 2024: 1000 overnight CO2 traps with one female Cx tarsalis each.
  await db.query(
    `insert into collection (agency, collection_date, collection_num, num_trap, surv_year, trap, trap_nights)
     select 1, '2024-07-09T15:00:00Z', g, 1, 2024, $1, 1 from generate_series(1, $2::int) g`,
    [TRAP_ID.co2, JULY_9],
  );
  // Week 29: one more trap, the last record of the list, with 500 females.
  await db.query(
    `insert into collection (agency, collection_date, collection_num, num_trap, surv_year, trap, trap_nights)
     values (1, '2024-07-16T15:00:00Z', $2, 1, 2024, $1, 1)`,
    [TRAP_ID.co2, JULY_9 + 1],
  );
  await db.query(
    `insert into abundance (collection, agency, species, sex, num_count)
     select id, 1, $1, $2, case when collection_num = $3 then 500 else 1 end
       from collection where agency = 1 and surv_year = 2024`,
    [SPECIES_ID.cxTarsalis, SEX_ID.fMixed, JULY_9 + 1],
  );
  const { rows } = await db.query<{ id: number }>(
    'select id from collection where agency = 1 and surv_year = 2024 order by id',
  );
  return rows.map((r) => r.id);
}

async function abundance(query: string, on = stack, cookie = manager) {
  const res = await on.api(`/api/reports/abundance?${query}`, { cookie });
  expect(res.status, res.text).toBe(200);
  return res.json<{ rows: Array<Record<string, unknown>> }>().rows;
}

beforeAll(async () => {
  stack = await startBffStack();
  manager = await stack.signIn('demo-manager');
  recordsToken = await stack.records.login('demo-manager');
  ids = await seedCollections(stack);
}, 60_000);
afterAll(async () => {
  await stack?.close();
});

describe('reading the lists page by page', () => {
  it('keeps a live record when another client retires one of an already read page', async () => {
    // The first collection page is answered late; the upstream has already read it when a
    // collection of that page is retired by another client (straight at the records service).
    const before = stack.proxy.seen.length;
    const firstPage = stack.proxy.arm('GET', '/v1/arthropod/collection', 'delay', 300);
    const report = abundance('year=2024');
    await firstPage;
    const retired = await http(`${stack.recordsUrl}/v1/arthropod/collection/${ids[10]}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${recordsToken}` },
    });
    expect(retired.status, retired.text).toBe(200);
    const rows = await report;
    // Week 29's trap was never touched: its 500 females are in the report.
    expect(rows.find((r) => r.Week === 29)).toEqual({
      Year: 2024,
      Week: 29,
      Count: 500,
      TrapEvents: 1,
      Abundance: 500,
    });
    // The records service takes the key on both lists: every page was read by key (one more
    // read, sorted by -id, asks for the highest id of the longer list).
    const reads = stack.proxy.seen.slice(before).filter((r) => r.method === 'GET');
    expect(reads.map((r) => r.path).sort()).toEqual([
      '/v1/arthropod/collection',
      '/v1/arthropod/collection',
      '/v1/arthropod/collection',
      '/v1/arthropod/pool',
    ]);
    for (const r of reads) {
      const q = new URLSearchParams(r.target.split('?')[1]);
      if (q.get('sort') === '-id') expect(q.get('pageSize'), r.target).toBe('1');
      else expect([q.get('sort'), q.has('query[id][$gt]')], r.target).toEqual(['id', true]);
    }
  });

  it('reads a record added by another client while paging once, and loses none', async () => {
    // A write through this BFF makes the next report read the lists afresh.
    const other = await stack.api('/api/v1/arthropod/collection', {
      method: 'POST',
      cookie: manager,
      body: {
        collection_date: '2023-07-11',
        num_trap: 1,
        trap: TRAP_ID.co2,
        trap_nights: 1,
        location: {
          shape: { type: 'Point', coordinates: [-121.49, 38.58] },
          coordinate_precision: 1,
        },
      },
    });
    expect(other.status, other.text).toBe(201);
    const firstPage = stack.proxy.arm('GET', '/v1/arthropod/collection', 'delay', 300);
    const report = abundance('year=2024');
    await firstPage;
    const added = await http(`${stack.recordsUrl}/v1/arthropod/collection`, {
      method: 'POST',
      headers: { authorization: `Bearer ${recordsToken}` },
      body: {
        collection_date: '2024-07-23',
        num_trap: 1,
        trap: TRAP_ID.co2,
        trap_nights: 1,
        location: {
          shape: { type: 'Point', coordinates: [-121.49, 38.58] },
          coordinate_precision: 1,
        },
        arthropods: [{ species: SPECIES_ID.cxTarsalis, sex: SEX_ID.fMixed, num_count: 7 }],
      },
    });
    expect(added.status, added.text).toBe(201);
    const rows = await report;
    // Week 28 lost one trap (retired above) and never gains a repeated one; week 29 is whole.
    expect(rows.find((r) => r.Week === 28)).toMatchObject({ Count: 999, TrapEvents: 999 });
    expect(rows.find((r) => r.Week === 29)).toMatchObject({ Count: 500, TrapEvents: 1 });
    // Added after the first page was read, past it in id order: on the second page, once.
    expect(rows.find((r) => r.Week === 30)).toMatchObject({ Count: 7, TrapEvents: 1 });
  });
});

/**
 * An HTTP hop in front of the upstream that takes no key (`sort`, `query[id][$gt]`): in mode
 * 'ignore' it drops them before passing the request on (as an upstream that ignores them), in
 * mode 'refuse' it answers 422 to a request that carries them.
 */
function keylessHop(targetUrl: string, mode: 'ignore' | 'refuse') {
  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://hop');
      const keyed = [...url.searchParams.keys()].some(
        (k) => k === 'sort' || k.startsWith('query['),
      );
      if (keyed && mode === 'refuse') {
        res.writeHead(422, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { code: 'validation_failed', message: 'Unknown field' } }));
        return;
      }
      for (const k of [...url.searchParams.keys()]) {
        if (k === 'sort' || k.startsWith('query[')) url.searchParams.delete(k);
      }
      const headers = { ...req.headers };
      delete headers.host;
      delete headers.connection;
      delete headers['content-length'];
      // This hop passes bodies on as text: it asks the records service for uncompressed answers.
      delete headers['accept-encoding'];
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const up = await request(`${targetUrl}${url.pathname}${url.search}`, {
        method: req.method as 'GET',
        headers: headers as Record<string, string>,
        body: chunks.length ? Buffer.concat(chunks) : undefined,
      });
      const text = await up.body.text();
      res.writeHead(up.statusCode, { 'content-type': String(up.headers['content-type'] ?? '') });
      res.end(text);
    })();
  });
  return server;
}

describe.each(['ignore', 'refuse'] as const)('an upstream that does %s the key', (mode) => {
  let keyless: BffStack;
  beforeAll(async () => {
    keyless = await startBffStack({ hop: (url) => serveHop(keylessHop(url, mode)) });
    await seedCollections(keyless);
  }, 60_000);
  afterAll(async () => {
    await keyless?.close();
  });

  it('is read by page number, every record once', async () => {
    const cookie = await keyless.signIn('demo-manager');
    const rows = await abundance('year=2024', keyless, cookie);
    expect(rows).toEqual([
      { Year: 2024, Week: 28, Count: 1000, TrapEvents: 1000, Abundance: 1 },
      { Year: 2024, Week: 29, Count: 500, TrapEvents: 1, Abundance: 500 },
    ]);
  });
});
