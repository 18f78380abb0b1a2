/**
 * What a pull costs in requests, counted where they arrive: at the records service, behind the
 * real BFF (the e2e harness's stack: PGlite in memory, real HTTP on port 0, no fetch stub). A technician on one bar of
 * signal pays a round trip per request: a pull with nothing new must cost one small request per
 * list, and the first pull must ask for each page of sites once.
 */
import 'fake-indexeddb/auto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TraplineDb } from '../../../src/client/db/database';
import { createSyncEngine, type SyncEngine } from '../../../src/client/sync';
import {
  METHOD_ID,
  PRECISION_ID,
  SEX_ID,
  SPECIES_ID,
  STATUS_ID,
  TARGET_ID,
  TRAP_ID,
} from '../../../src/server/records/seed/lookup-data';
import { recordsApi, type RecordsApi } from '../../e2e/harness/records-api';
import { startStack, type Stack } from '../../e2e/harness/stack';
import { browserSession } from './helpers/browser-session';

/** Small pages, so a handful of sites spans several of them. */
const PAGE_SIZE = 2;
let stack: Stack;
let api: RecordsApi;
let headers: Record<string, string>;
const tablets: Array<{ engine: SyncEngine; tablet: TraplineDb }> = [];

/** Creates a record at the records service (as another technician would). */
async function create(path: string, body: unknown): Promise<{ id: number }> {
  const res = await api.post<{ id: number }>(path, body);
  expect(res.status, `POST ${path}`).toBe(201);
  return res.body;
}

let codeSeq = 0;
const newSite = () =>
  create('/v1/site', {
    code: String(820000 + (codeSeq += 1)),
    name: `Counted site ${codeSeq}`,
    coordinate_precision: PRECISION_ID.gps,
    shape: { type: 'Point', coordinates: [-121.49, 38.58] },
  });

beforeAll(async () => {
  // The records service (counting what reaches it) behind the real BFF; no browser.
  stack = await startStack();
  api = await recordsApi(stack.recordsUrl, stack.password, 'demo-tech');
  const session = await browserSession(stack.appUrl, 'demo-tech', stack.password);
  headers = session.headers;
  const agency = session.agencyId;

  // Something in every list: five sites, a collection of today, its pool and the pool's test.
  const sites = [];
  for (let i = 0; i < 5; i++) sites.push(await newSite());
  const today = new Date().toISOString().slice(0, 10);
  const collection = await create('/v1/arthropod/collection', {
    collection_date: today,
    num_trap: 1,
    trap: TRAP_ID.co2,
    trap_nights: 1,
    site: sites[0].id,
    arthropods: [{ species: SPECIES_ID.cxTarsalis, sex: SEX_ID.fMixed, num_count: 40 }],
  });
  const pool = await create('/v1/arthropod/pool', {
    collection: collection.id,
    species: SPECIES_ID.cxTarsalis,
    sex: SEX_ID.fMixed,
    num_count: 25,
  });
  await create('/v1/arthropod/pool/test', {
    pool: pool.id,
    method: METHOD_ID.rtPcr,
    target: TARGET_ID.wnv,
    status: STATUS_ID.negative,
    test_date: today,
    test_agency: agency,
  });
  // Written a quarter of an hour before these pulls: a pull then has no late commit to look
  // back for (pull-mark.ts), and its cost is the lists' alone.
  for (const table of ['site', 'collection', 'pool', 'pool_test']) {
    await stack.db.query(`update ${table} set updated = updated - interval '15 minutes'`);
  }
}, 60_000);

afterEach(async () => {
  for (const { engine, tablet } of tablets.splice(0)) {
    engine.stop();
    tablet.close();
    await tablet.delete();
  }
});

afterAll(async () => {
  await stack?.stop();
});

function tablet() {
  const t = new TraplineDb(`trapline-count-${crypto.randomUUID()}`);
  const engine = createSyncEngine(t, {
    baseUrl: stack.appUrl,
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
  for (const r of stack.records.requests)
    if (r.method === 'GET') out[r.path] = (out[r.path] ?? 0) + 1;
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
    const { count } = await api.sites();
    stack.records.reset();

    await engine.pull();

    expect(await t.sites.count()).toBe(count);
    const siteRequests = stack.records.requests.filter((r) => r.path === '/v1/site');
    expect(siteRequests).toHaveLength(Math.ceil(count / PAGE_SIZE));
  });

  it('costs one request per list when nothing changed lately, and the same when one site changed', async () => {
    const { db: t, engine } = tablet();
    await engine.pull();
    stack.records.reset();

    await engine.pull();

    expect(getsByPath()).toEqual(Object.fromEntries(LISTS.map((path) => [path, 1])));
    expect(stack.records.requests.filter((r) => r.method !== 'GET')).toEqual([]);

    const changed = await newSite();
    stack.records.reset();
    await engine.pull();

    expect(getsByPath()).toEqual(Object.fromEntries(LISTS.map((path) => [path, 1])));
    expect(await t.sites.where('serverId').equals(changed.id).first()).toMatchObject({
      syncState: 'synced',
      name: `Counted site ${codeSeq}`,
    });
  });
});
