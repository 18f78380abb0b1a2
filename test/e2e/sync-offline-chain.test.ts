import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAppBuilt } from './harness/build-app';
import { launchApp, type AppBrowser } from './harness/browser';
import {
  createCollectionAtSite,
  createSiteByMap,
  makePools,
  recordPoolTest,
  signIn,
  visible,
} from './harness/field-actions';
import { recordsApi } from './harness/records-api';
import { startStack, type Stack } from './harness/stack';
import {
  badgeStates,
  localTable,
  outbox,
  outboxEmpties,
  PATHS,
  refId,
} from './harness/sync-checks';

// A site, a collection at it, a pool of it and a test of that pool, all made with no network:
// once online they reach the records service parents first, each child pointing at the id
// the server gave its parent.
describe('sync: a chain of records made offline', () => {
  let stack: Stack;
  let app: AppBrowser;

  beforeAll(async () => {
    await ensureAppBuilt();
    stack = await startStack();
    app = await launchApp(stack.appUrl);
    await signIn(app.page, { username: 'demo-tech', password: stack.password });
  });

  afterAll(async () => {
    await app?.dispose();
    await stack?.stop();
  });

  it('sends site, collection, pool and test in order with the server ids of their parents once online', async () => {
    const page = app.page;
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await app.context.setOffline(true);
    const before = stack.records.requests.length;

    await createSiteByMap(page, { code: '741001', name: 'Offline Slough' });
    await createCollectionAtSite(page, [{ species: 'Cx tarsalis', sex: 'F-Mixed', count: 20 }]);
    const collectionPath = new URL(page.url()).pathname;
    await makePools(page);
    await recordPoolTest(page, 'Presumptive', 24.5);

    // All four wait on the tablet, in one dependency chain; nothing left the tablet.
    const queued = await outbox(page);
    expect(queued.map((e) => e.entity).sort()).toEqual(
      ['collection', 'pool', 'poolTest', 'site'].sort(),
    );
    expect(new Set(queued.map((e) => e.state))).toEqual(new Set(['pending']));
    expect(stack.records.requests.length).toBe(before);
    await visible(page.getByRole('status').getByText(/Offline — 4 changes saved on this tablet/));

    await app.context.setOffline(false);
    await outboxEmpties(page);

    // Arrival order at the records service: each parent before its child, each POSTed once.
    const posts = stack.records.requests
      .slice(before)
      .filter((r) => r.method === 'POST' && r.path.startsWith('/v1/'))
      .map((r) => r.path);
    expect(posts).toEqual([PATHS.site, PATHS.collection, PATHS.pool, PATHS.poolTest]);

    const api = await recordsApi(stack.recordsUrl, stack.password);
    const sites = (await api.sites('query[code]=741001')).rows;
    expect(sites).toHaveLength(1);
    const site = sites[0];
    expect(site).toMatchObject({ code: '741001', name: 'Offline Slough' });
    const collections = (await api.collections(`query[site]=${String(site.id)}`)).rows;
    expect(collections).toHaveLength(1);
    expect(refId(collections[0].site)).toBe(Number(site.id));
    const pools = (await api.pools(`query[collection]=${String(collections[0].id)}`)).rows;
    expect(pools).toHaveLength(1);
    expect(refId(pools[0].collection)).toBe(Number(collections[0].id));
    expect(Number(pools[0].num_count)).toBe(20);
    const tests = (await api.poolTests(`query[pool]=${String(pools[0].id)}`)).rows;
    expect(tests).toHaveLength(1);
    expect(refId(tests[0].pool)).toBe(Number(pools[0].id));

    // The tablet knows each record's server id, and says so on screen.
    const localSite = (await localTable(page, 'sites')).find((s) => s.code === '741001');
    expect(localSite).toMatchObject({ serverId: Number(site.id), syncState: 'synced' });
    await page.goto(collectionPath);
    await visible(page.getByRole('heading', { name: /^Collection / }));
    // The collection, its pool and the pool's test result, each with its own badge.
    await expect.poll(() => badgeStates(page)).toEqual(['synced', 'synced', 'synced']);
    await visible(page.getByRole('status').getByText('All changes sent'));
  });
});
