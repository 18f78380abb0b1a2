// @vitest-environment node
/**
 * What a pull costs in requests, counted where they arrive: at the records service, behind the
 * real BFF (PGlite in memory, real HTTP on port 0, no fetch stub). A technician on one bar of
 * signal pays a round trip per request: a pull with nothing new must cost one small request per
 * list, and the first pull must ask for each page of sites once.
 */
import 'fake-indexeddb/auto';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TraplineDb } from '../../../src/client/db/database';
import { createSyncEngine, type SyncEngine } from '../../../src/client/sync';
import { startBff, type RunningBff } from '../../../src/server/bff/app';
import type { Database } from '../../../src/server/db/database';
import { buildRecords } from '../../../src/server/records/app';
import {
  METHOD_ID,
  PRECISION_ID,
  SEX_ID,
  SPECIES_ID,
  STATUS_ID,
  TARGET_ID,
  TRAP_ID,
} from '../../../src/server/records/seed/lookup-data';
import { seedDemoAgencies } from '../../../src/server/records/seed/seed-demo-agencies';
import { seedLookups } from '../../../src/server/records/seed/seed-lookups';
import { countRequests, type RequestCounter } from '../../e2e/harness/request-counter';
import { openMigratedPglite } from '../../server/helpers/test-database';

const PASSWORD = 'pull-request-count-password';
/** Small pages, so a handful of sites spans several of them. */
const PAGE_SIZE = 2;
let db: Database;
let records: FastifyInstance;
let counter: RequestCounter;
let bff: RunningBff;
let headers: Record<string, string>;
const tablets: Array<{ engine: SyncEngine; tablet: TraplineDb }> = [];

async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${bff.url}/api/v1${path}`, {
    method,
    headers: { ...headers, 'X-CSRF': '1', ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  expect(res.status, `${method} ${path}`).toBeLessThan(300);
  return (await res.json()) as T;
}

let codeSeq = 0;
const newSite = () =>
  api<{ id: number }>('POST', '/site', {
    code: String(820000 + (codeSeq += 1)),
    name: `Counted site ${codeSeq}`,
    coordinate_precision: PRECISION_ID.gps,
    shape: { type: 'Point', coordinates: [-121.49, 38.58] },
  });

beforeAll(async () => {
  db = await openMigratedPglite();
  await seedLookups(db);
  await seedDemoAgencies(db, { password: PASSWORD });
  records = await buildRecords({ db });
  const recordsUrl = await records.listen({ port: 0, host: '127.0.0.1' });
  counter = countRequests(records.server);
  bff = await startBff({ db, upstreamUrl: recordsUrl, staticRoot: null, logger: false });
  const res = await fetch(`${bff.url}/api/session`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-CSRF': '1', Origin: bff.url },
    body: JSON.stringify({ username: 'demo-tech', password: PASSWORD }),
  });
  expect(res.status).toBe(200);
  const agency = ((await res.json()) as { agency: { id: number } }).agency.id;
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';', 1)[0])
    .join('; ');
  headers = { Cookie: cookie, Origin: bff.url, 'Sec-Fetch-Site': 'same-origin' };

  // Something in every list: five sites, a collection of today, its pool and the pool's test.
  const sites = [];
  for (let i = 0; i < 5; i++) sites.push(await newSite());
  const today = new Date().toISOString().slice(0, 10);
  const collection = await api<{ id: number }>('POST', '/arthropod/collection', {
    collection_date: today,
    num_trap: 1,
    trap: TRAP_ID.co2,
    trap_nights: 1,
    site: sites[0].id,
    arthropods: [{ species: SPECIES_ID.cxTarsalis, sex: SEX_ID.fMixed, num_count: 40 }],
  });
  const pool = await api<{ id: number }>('POST', '/arthropod/pool', {
    collection: collection.id,
    species: SPECIES_ID.cxTarsalis,
    sex: SEX_ID.fMixed,
    num_count: 25,
  });
  await api('POST', '/arthropod/pool/test', {
    pool: pool.id,
    method: METHOD_ID.rtPcr,
    target: TARGET_ID.wnv,
    status: STATUS_ID.negative,
    test_date: today,
    test_agency: agency,
  });
}, 60_000);

afterEach(async () => {
  for (const { engine, tablet } of tablets.splice(0)) {
    engine.stop();
    tablet.close();
    await tablet.delete();
  }
});

afterAll(async () => {
  counter?.detach();
  await bff?.close();
  await records?.close();
  await db?.close();
});

function tablet() {
  const t = new TraplineDb(`trapline-count-${crypto.randomUUID()}`);
  const engine = createSyncEngine(t, {
    baseUrl: bff.url,
    headers,
    autoPull: false,
    channelName: null,
    pull: { pageSize: PAGE_SIZE },
  });
  tablets.push({ engine, tablet: t });
  return { db: t, engine };
}

/** GET requests that reached the records service, by path, since the last reset. */
function getsByPath(): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of counter.requests) if (r.method === 'GET') out[r.path] = (out[r.path] ?? 0) + 1;
  return out;
}

const LISTS = [
  '/v1/site',
  '/v1/arthropod/collection',
  '/v1/arthropod/pool',
  '/v1/arthropod/pool/test',
];

describe('what a pull costs in requests at the records service', () => {
  it('asks for each page of sites once on the first pull, with no second listing of site ids', async () => {
    const { db: t, engine } = tablet();
    const { count } = await api<{ count: number }>('GET', '/site?pageSize=1');
    counter.reset();

    await engine.pull();

    expect(await t.sites.count()).toBe(count);
    const siteRequests = counter.requests.filter((r) => r.path === '/v1/site');
    expect(siteRequests).toHaveLength(Math.ceil(count / PAGE_SIZE));
  });

  it('costs one request per list when nothing changed, and the same when one site changed', async () => {
    const { db: t, engine } = tablet();
    await engine.pull();
    counter.reset();

    await engine.pull();

    expect(getsByPath()).toEqual(Object.fromEntries(LISTS.map((path) => [path, 1])));
    expect(counter.requests.filter((r) => r.method !== 'GET')).toEqual([]);

    const changed = await newSite();
    counter.reset();
    await engine.pull();

    expect(getsByPath()).toEqual(Object.fromEntries(LISTS.map((path) => [path, 1])));
    expect(await t.sites.where('serverId').equals(changed.id).first()).toMatchObject({
      syncState: 'synced',
      name: `Counted site ${codeSeq}`,
    });
  });
});
