/**
 * What a pull costs in requests, counted where they arrive: at the records service, behind the
 * real BFF (the e2e harness's stack: PGlite in memory, real HTTP on port 0, no fetch stub). A technician on one bar of
 * signal pays a round trip per request: a pull with nothing new must cost one small request per
 * list, and the first pull must ask for each page of sites once.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { recordsApi, type RecordsApi } from '../../e2e/harness/records-api';
import { rtPcrTest, siteBody, tarsalis, trapNight } from './helpers/record-bodies';
import { createRecord } from './helpers/records-service-writes';
import { tabletsOnStack } from './helpers/tablets-on-stack';

/** Small pages, so a handful of sites spans several of them. */
const PAGE_SIZE = 2;
// The records service (counting what reaches it) behind the real BFF; no browser.
const { world, tablet: onStack } = tabletsOnStack('count');
/** Another technician at the records service, making the records the tablet pulls. */
let api: RecordsApi;

const tablet = () => onStack({ pull: { pageSize: PAGE_SIZE } });

/** Creates a record at the records service (as another technician would). */
const create = (path: string, body: unknown) => createRecord<{ id: number }>(api, path, body);

let codeSeq = 0;
const newSite = () =>
  create('/v1/site', siteBody(820000 + (codeSeq += 1), `Counted site ${codeSeq}`));

beforeAll(async () => {
  api = await recordsApi(world.stack.recordsUrl, world.stack.password, 'demo-tech');

  // Something in every list: five sites, a collection of today, its pool and the pool's test.
  const sites = [];
  for (let i = 0; i < 5; i++) sites.push(await newSite());
  const today = new Date().toISOString().slice(0, 10);
  const collection = await create('/v1/arthropod/collection', {
    ...trapNight(today),
    site: sites[0].id,
    arthropods: [tarsalis(40)],
  });
  const pool = await create('/v1/arthropod/pool', { collection: collection.id, ...tarsalis(25) });
  await create('/v1/arthropod/pool/test', { pool: pool.id, ...rtPcrTest(today, world.agency) });
  // Written a quarter of an hour before these pulls: a pull then has no late commit to look
  // back for (pull-mark.ts), and its cost is the lists' alone.
  for (const table of ['site', 'collection', 'pool', 'pool_test']) {
    await world.stack.db.query(`update ${table} set updated = updated - interval '15 minutes'`);
  }
}, 60_000);

/** GET requests that reached the records service, by path, since the last reset. */
function getsByPath(): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of world.stack.records.requests)
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
    world.stack.records.reset();

    await engine.pull();

    expect(await t.sites.count()).toBe(count);
    const siteRequests = world.stack.records.requests.filter((r) => r.path === '/v1/site');
    expect(siteRequests).toHaveLength(Math.ceil(count / PAGE_SIZE));
  });

  it('costs one request per list when nothing changed lately, and the same when one site changed', async () => {
    const { db: t, engine } = tablet();
    await engine.pull();
    world.stack.records.reset();

    await engine.pull();

    expect(getsByPath()).toEqual(Object.fromEntries(LISTS.map((path) => [path, 1])));
    expect(world.stack.records.requests.filter((r) => r.method !== 'GET')).toEqual([]);

    const changed = await newSite();
    world.stack.records.reset();
    await engine.pull();

    expect(getsByPath()).toEqual(Object.fromEntries(LISTS.map((path) => [path, 1])));
    expect(await t.sites.where('serverId').equals(changed.id).first()).toMatchObject({
      syncState: 'synced',
      name: `Counted site ${codeSeq}`,
    });
  });
});
