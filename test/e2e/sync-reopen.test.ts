import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAppBuilt } from './harness/build-app';
import { launchApp, type AppBrowser } from './harness/browser';
import {
  createCollectionAtSite,
  createSiteByMap,
  makePools,
  signIn,
  signInAgain,
  visible,
} from './harness/field-actions';
import { recordsApi } from './harness/records-api';
import { startStack, type Stack } from './harness/stack';
import { keysPostedTo, outbox, outboxEmpties, PATHS, postsTo, refId } from './harness/sync-checks';

// Abundance rows that make 20 pools of at most 50: with the site and the collection, 22 changes.
const ROWS = [
  { species: 'Cx tarsalis', sex: 'F-Mixed', count: 500 },
  { species: 'Cx pipiens', sex: 'F-Mixed', count: 300 },
  { species: 'Cs inornata', sex: 'Male', count: 200 },
];
const POOLS = 20;

// The tablet's browser is closed while the queue is being sent, then opened again on the same
// profile: whatever was sent is not sent twice, whatever was not is sent, nothing is lost.
describe('sync: the browser closed mid-drain and reopened', () => {
  let stack: Stack;
  let app: AppBrowser;

  beforeAll(async () => {
    await ensureAppBuilt();
    stack = await startStack();
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

  it('loses nothing and duplicates nothing', async () => {
    let page = app.page;
    await app.context.setOffline(true);
    await createSiteByMap(page, { code: '746001', name: 'Closed Lid Basin' });
    await createCollectionAtSite(page, ROWS);
    await makePools(page);
    await expect.poll(async () => (await outbox(page)).length, { timeout: 15_000 }).toBe(POOLS + 2);
    const queuedKeys = new Set((await outbox(page)).map((e) => e.id as string));

    // Back online; the moment the first pool reaches the records service, the browser goes.
    await app.context.setOffline(false);
    await expect
      .poll(() => postsTo(stack, PATHS.pool), { timeout: 30_000, interval: 20 })
      .toBeGreaterThan(0);
    await app.close();
    const poolsAtClose = postsTo(stack, PATHS.pool);
    expect(poolsAtClose, 'the drain was still under way when the browser closed').toBeLessThan(
      POOLS,
    );

    await app.reopen('/');
    page = app.page;
    // The tablet still knows who signed in and shows their screens; the session cookie does not
    // outlive the browser, so the sheet asks for the password when the first send meets a 401.
    await visible(page.getByRole('heading', { name: /^Hello,/ }), 30_000);
    const sheet = page.getByRole('dialog', { name: 'Sign in again' });
    await expect
      .poll(
        async () => {
          if (await sheet.isVisible()) await signInAgain(page, stack.password);
          return (await outbox(page)).length;
        },
        { timeout: 60_000, interval: 250 },
      )
      .toBe(0);
    await outboxEmpties(page, 60_000);

    const api = await recordsApi(stack.recordsUrl, stack.password);
    const sites = (await api.sites('query[code]=746001')).rows;
    expect(sites).toHaveLength(1);
    const collections = (await api.collections(`query[site]=${String(sites[0].id)}`)).rows;
    expect(collections).toHaveLength(1);
    const pools = (await api.pools(`query[collection]=${String(collections[0].id)}`)).rows;
    expect(pools).toHaveLength(POOLS);
    expect(pools.every((p) => refId(p.collection) === Number(collections[0].id))).toBe(true);
    expect(pools.reduce((sum, p) => sum + Number(p.num_count), 0)).toBe(1000);

    // Each change reached the records service once, under its own Idempotency-Key.
    const keys = [PATHS.site, PATHS.collection, PATHS.pool].flatMap((p) => keysPostedTo(stack, p));
    expect(keys).toHaveLength(POOLS + 2);
    expect(new Set(keys)).toEqual(queuedKeys);
  });
});
