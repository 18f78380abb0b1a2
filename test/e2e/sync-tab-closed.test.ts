import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAppBuilt } from './harness/build-app';
import { launchApp, type AppBrowser } from './harness/browser';
import {
  createCollectionAtSite,
  createSiteByMap,
  makePools,
  signIn,
  visible,
} from './harness/field-actions';
import { recordsApi } from './harness/records-api';
import { startStack, type Stack } from './harness/stack';
import { keysPostedTo, outbox, outboxEmpties, PATHS, postsTo } from './harness/sync-checks';

// 600 + 400 make 20 pools of 50: with the site and the collection, 22 changes.
const ROWS = [
  { species: 'Cx tarsalis', sex: 'F-Mixed', count: 600 },
  { species: 'Cx pipiens', sex: 'F-Mixed', count: 400 },
];
const POOLS = 20;

// The tab that is sending is closed while another tab of the app is open: the other tab takes
// the queue over at once (it does not wait for its idle timer), and nothing is sent twice.
describe('sync: the sending tab is closed while another tab is open', () => {
  let stack: Stack;
  let app: AppBrowser;

  beforeAll(async () => {
    await ensureAppBuilt();
    // A slow link to the records service keeps the drain going long enough to act in it.
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

  it('lets the other tab finish the queue, each change sent once', async () => {
    const sender = app.page;
    await app.context.setOffline(true);
    await createSiteByMap(sender, { code: '747001', name: 'Two Window Pond' });
    await createCollectionAtSite(sender, ROWS);
    await makePools(sender);
    await expect
      .poll(async () => (await outbox(sender)).length, { timeout: 15_000 })
      .toBe(POOLS + 2);
    const queuedKeys = new Set((await outbox(sender)).map((e) => e.id as string));

    stack.proxy!.setLatency(400);
    await app.context.setOffline(false);
    await expect
      .poll(() => postsTo(stack, PATHS.pool), { timeout: 30_000, interval: 20 })
      .toBeGreaterThan(0);

    // Only now does the second tab open: the first one holds the queue.
    const other = await app.newTab('/');
    await visible(other.getByRole('heading', { name: /^Hello,/ }));
    const poolsAtClose = postsTo(stack, PATHS.pool);
    expect(poolsAtClose, 'the first tab was still sending when it closed').toBeLessThan(POOLS);
    await sender.close();

    // Well within the engine's idle poll (60 s): the waiting tab picks the queue up itself.
    await outboxEmpties(other, 25_000);

    const api = await recordsApi(stack.recordsUrl, stack.password);
    const [site] = (await api.sites('query[code]=747001')).rows;
    const collections = (await api.collections(`query[site]=${String(site.id)}`)).rows;
    expect(collections).toHaveLength(1);
    const pools = (await api.pools(`query[collection]=${String(collections[0].id)}`)).rows;
    expect(pools).toHaveLength(POOLS);
    expect(pools.reduce((sum, p) => sum + Number(p.num_count), 0)).toBe(1000);
    const keys = [PATHS.site, PATHS.collection, PATHS.pool].flatMap((p) => keysPostedTo(stack, p));
    expect(keys).toHaveLength(POOLS + 2);
    expect(new Set(keys)).toEqual(queuedKeys);
  });
});
