import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAppBuilt } from './harness/build-app';
import { launchApp, type AppBrowser } from './harness/browser';
import {
  createCollectionAtSite,
  createSiteByMap,
  makePools,
  signIn,
} from './harness/field-actions';
import { recordsApi } from './harness/records-api';
import { startStack, type Stack } from './harness/stack';
import { keysPostedTo, outbox, outboxEmpties, PATHS, postsTo } from './harness/sync-checks';

// 750 make 15 pools of 50: with the site and the collection, 17 changes.
const ROWS = [{ species: 'Cx tarsalis', sex: 'F-Mixed', count: 750 }];
const POOLS = 15;

// The tablet loses the network while requests are on their way (some reached the server,
// their answers did not come back); when the network returns, the queue resumes and the
// server holds every record once.
describe('sync: the network drops in the middle of sending', () => {
  let stack: Stack;
  let app: AppBrowser;

  beforeAll(async () => {
    await ensureAppBuilt();
    stack = await startStack({ faultProxy: true });
    app = await launchApp(stack.appUrl);
    await signIn(app.page, { username: 'demo-tech', password: stack.password });
    await app.page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
  });

  afterAll(async () => {
    await app?.dispose();
    await stack?.stop();
  });

  it('resumes after the drop and creates every record once', async () => {
    const page = app.page;
    await app.context.setOffline(true);
    await createSiteByMap(page, { code: '749001', name: 'Patchy Signal Slough' });
    await createCollectionAtSite(page, ROWS);
    await makePools(page);
    await expect.poll(async () => (await outbox(page)).length, { timeout: 15_000 }).toBe(POOLS + 2);
    const queuedKeys = new Set((await outbox(page)).map((e) => e.id as string));

    // A slow link, so that requests are in flight when the tablet loses the network.
    stack.proxy!.setLatency(300);
    await app.context.setOffline(false);
    await expect
      .poll(() => postsTo(stack, PATHS.pool), { timeout: 30_000, interval: 20 })
      .toBeGreaterThan(0);
    await app.context.setOffline(true);
    const poolsAtDrop = postsTo(stack, PATHS.pool);
    expect(poolsAtDrop, 'the drain was still under way at the drop').toBeLessThan(POOLS);
    // Offline: the app says so and keeps what is left.
    await expect
      .poll(
        () => page.getByRole('region', { name: 'Sync status' }).getByRole('status').textContent(),
        { timeout: 15_000 },
      )
      .toMatch(/^Offline/);
    expect((await outbox(page)).length).toBeGreaterThan(0);

    stack.proxy!.setLatency(0);
    await app.context.setOffline(false);
    await outboxEmpties(page, 60_000);

    const api = await recordsApi(stack.recordsUrl, stack.password);
    const [site] = (await api.sites('query[code]=749001')).rows;
    const collections = (await api.collections(`query[site]=${String(site.id)}`)).rows;
    expect(collections).toHaveLength(1);
    const pools = (await api.pools(`query[collection]=${String(collections[0].id)}`)).rows;
    expect(pools).toHaveLength(POOLS);
    expect(pools.reduce((sum, p) => sum + Number(p.num_count), 0)).toBe(750);
    const keys = [PATHS.site, PATHS.collection, PATHS.pool].flatMap((p) => keysPostedTo(stack, p));
    expect(keys).toHaveLength(POOLS + 2);
    expect(new Set(keys)).toEqual(queuedKeys);
  });
});
