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
import { keysPostedTo, outbox, outboxEmpties, PATHS } from './harness/sync-checks';

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
    // The BFF waits long for an answer: the answer held below keeps the first tab mid-send for
    // as long as the BFF waits for it (with the usual 10 s, a timeout ended the hold).
    stack = await startStack({ faultProxy: true, upstreamTimeoutMs: 90_000 });
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

    // The answer to the first pool is held back at the proxy (the records service has stored
    // it): the first tab is mid-send, waiting for that answer, however long the second tab takes
    // to open on a loaded machine. A timed window alone (the slow link) once closed before the
    // second tab had opened on CI, and the test then proved nothing.
    const firstPool = stack.proxy!.holdResponseOfNext({ method: 'POST', path: PATHS.pool });
    stack.proxy!.setLatency(400);
    await app.context.setOffline(false);
    await firstPool.held;

    // Only now does the second tab open: the first one holds the queue.
    const other = await app.newTab('/');
    await visible(other.getByRole('heading', { name: /^Hello,/ }));
    const unsentAtClose = (await outbox(other)).length;
    expect(unsentAtClose, 'the first tab was still sending when it closed').toBeGreaterThan(0);
    await sender.close();
    // Its answer reaches the BFF after the tab has gone: the other tab's send of that change is
    // answered from the BFF's journal, not stored a second time.
    firstPool.release();

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
