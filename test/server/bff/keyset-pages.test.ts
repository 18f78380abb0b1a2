import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  KeyNotHonoured,
  keysetPages,
  type KeyedRow,
  type KeysetRead,
  type PageFetch,
} from '../../../src/server/bff/keyset-pages';
import { UpstreamClient } from '../../../src/server/bff/upstream-client';
import { ENTITY } from '../../../src/shared/entities';
import { buildTestRecords, type TestRecords } from '../helpers/records-app';
import { makeSite } from './helpers/record-bodies';

/**
 * The BFF's one keyset page reader (exports, site import, reports) against the real records
 * service over HTTP: what a district's export or report holds depends on it reading every record
 * once, in id order, while technicians keep writing.
 */
let records: TestRecords;
let upstream: UpstreamClient;
let token: string;
/** The query strings asked of the service, in order. */
const asked: string[] = [];

const SITES = ENTITY.site.path;

/** One page of the agency's sites over HTTP: rows, or null when the service refuses the query. */
const fetchSites: PageFetch = async (query) => {
  asked.push(query);
  const res = await upstream.request({
    method: 'GET',
    path: SITES,
    query,
    headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
  });
  if (res.status === 400 || res.status === 422) return null;
  if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${res.body}`);
  return (JSON.parse(res.body) as { rows: unknown[] }).rows;
};

async function createSite(): Promise<number> {
  const res = await records.app.inject({
    method: 'POST',
    url: SITES,
    headers: records.auth(token),
    payload: makeSite(),
  });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { id: number }).id;
}

async function retireSite(id: number): Promise<void> {
  const res = await records.app.inject({
    method: 'DELETE',
    url: `${SITES}/${id}`,
    headers: records.auth(token),
  });
  expect(res.statusCode, res.body).toBe(200);
}

/** Every id the reader yields, page by page. */
async function pagesOf(read: KeysetRead): Promise<number[][]> {
  const pages: number[][] = [];
  for await (const rows of keysetPages(read)) pages.push(rows.map((r: KeyedRow) => r.id));
  return pages;
}

/** The agency's live site ids, from one big page. */
async function allIds(): Promise<number[]> {
  const rows = await fetchSites('pageSize=1000&sort=id&fields[]=id');
  return (rows as KeyedRow[]).map((r) => r.id);
}

beforeAll(async () => {
  records = await buildTestRecords();
  await records.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = records.app.server.address() as AddressInfo;
  upstream = new UpstreamClient(`http://127.0.0.1:${port}`, {
    connectTimeoutMs: 5_000,
    responseTimeoutMs: 20_000,
  });
  token = await records.login('demo-manager');
  for (let i = 0; i < 7; i++) await createSite();
}, 60_000);

afterAll(async () => {
  await upstream?.close();
  await records?.close();
});

describe('keysetPages', () => {
  it('reads every record once, in id order, in pages of the size asked, ending at a short page', async () => {
    const ids = await allIds();
    expect(ids.length).toBeGreaterThanOrEqual(8); // the Zero Site and the seven made here
    asked.length = 0;

    const pages = await pagesOf({ fetchPage: fetchSites, pageSize: 3, params: { fields: ['id'] } });

    expect(pages.flat()).toEqual(ids);
    expect(pages.slice(0, -1).every((p) => p.length === 3)).toBe(true);
    // Each page after the first is asked by key: past the last id of the page before.
    const afterIds = asked.map((q) => new URLSearchParams(q).get('query[id][$gt]'));
    expect(afterIds[0]).toBe('0');
    pages.slice(0, -1).forEach((page, i) => expect(afterIds[i + 1]).toBe(String(page.at(-1))));
    // A full last page costs one more (empty) page; a short one ends the read.
    expect(asked).toHaveLength(ids.length % 3 === 0 ? pages.length + 1 : pages.length);
  });

  it('neither skips nor repeats a record when one already read is retired between pages', async () => {
    const before = await allIds();
    const pages: number[][] = [];
    for await (const rows of keysetPages({ fetchPage: fetchSites, pageSize: 2 })) {
      pages.push(rows.map((r) => r.id));
      // Page numbers would now shift every later record one place back: one would be missed.
      if (pages.length === 1) await retireSite(rows[1].id);
    }
    expect(pages.flat()).toEqual(before);
  });

  it('reads only the ids in a bounded range (after one id, up to another)', async () => {
    const ids = await allIds();
    const [afterId, upTo] = [ids[1], ids[5]];
    const pages = await pagesOf({ fetchPage: fetchSites, pageSize: 2, afterId, upTo });
    expect(pages.flat()).toEqual(ids.slice(2, 6));
  });

  it('sends the list’s own parameters with every page', async () => {
    asked.length = 0;
    await pagesOf({
      fetchPage: fetchSites,
      pageSize: 4,
      params: { populate: ['agency'], query: { code: { $gte: '400000' } } },
    });
    for (const q of asked) {
      const params = new URLSearchParams(q);
      expect(params.getAll('populate[]')).toEqual(['agency']);
      expect(params.get('query[code][$gte]')).toBe('400000');
    }
  });

  it('says the key was refused when the service answers the query with 422', async () => {
    const read = pagesOf({
      fetchPage: fetchSites,
      pageSize: 2,
      params: { query: { no_such_field: 1 } },
    });
    await expect(read).rejects.toEqual(new KeyNotHonoured('refused'));
    await expect(read).rejects.toMatchObject({ how: 'refused' });
  });

  it('says the key was ignored when a page does not rise past it, instead of repeating records', async () => {
    // An upstream that drops `query[id][$gt]`: every page would be the first one again.
    const ignoresKey: PageFetch = (query) => {
      const params = new URLSearchParams(query);
      params.delete('query[id][$gt]');
      return fetchSites(params.toString());
    };
    const seen: number[] = [];
    const read = (async () => {
      for await (const rows of keysetPages({ fetchPage: ignoresKey, pageSize: 2 }))
        seen.push(...rows.map((r) => r.id));
    })();
    await expect(read).rejects.toMatchObject({ name: 'KeyNotHonoured', how: 'ignored' });
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toHaveLength(2);
  });

  it('leaves no unhandled rejection when the caller stops while the next page is being read', async () => {
    let calls = 0;
    const failsSecond: PageFetch = async (query) => {
      calls += 1;
      if (calls === 2) throw new Error('the connection dropped');
      return fetchSites(query);
    };
    const unhandled: unknown[] = [];
    const note = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', note);
    try {
      for await (const rows of keysetPages({ fetchPage: failsSecond, pageSize: 2 })) {
        expect(rows).toHaveLength(2);
        break;
      }
      await new Promise((r) => setTimeout(r, 50));
    } finally {
      process.off('unhandledRejection', note);
    }
    expect(calls).toBe(2);
    expect(unhandled).toEqual([]);
  });
});
