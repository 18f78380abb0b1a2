import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAppBuilt } from './harness/build-app';
import { launchApp, type AppBrowser } from './harness/browser';
import {
  createCollectionAtSite,
  createSiteByMap,
  makePools,
  recordPoolTest,
  signIn,
} from './harness/field-actions';
import { recordsApi } from './harness/records-api';
import { startStack, type Stack } from './harness/stack';
import { keysPostedTo, outbox, outboxEmpties, PATHS, refId } from './harness/sync-checks';

// The records service creates a collection and answers, but the answer is lost on the way
// back (the fault proxy between the BFF and the records service drops it): the app retries
// with the same Idempotency-Key, and the server still holds one collection.
describe('sync: an answer lost after the server committed', () => {
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

  it('creates the collection once and empties the outbox', async () => {
    const page = app.page;
    const proxy = stack.proxy!;
    await app.context.setOffline(true);
    await createSiteByMap(page, { code: '745001', name: 'Lost Answer Lagoon' });
    await createCollectionAtSite(page, [{ species: 'Cx tarsalis', sex: 'F-Mixed', count: 33 }]);
    await makePools(page);
    const queued = await outbox(page);
    const collectionKey = queued.find((e) => e.entity === 'collection')?.id;
    expect(collectionKey).toBeTypeOf('string');

    // What the app saw of its own POSTs (observed, not altered).
    const browserPosts: string[] = [];
    page.on('response', (r) => {
      if (r.request().method() === 'POST' && r.url().includes('/api/v1/'))
        browserPosts.push(`${new URL(r.url()).pathname} ${r.status()}`);
    });
    const dropped = proxy.dropResponseOfNext({ method: 'POST', path: PATHS.collection });
    await app.context.setOffline(false);
    await expect(dropped).resolves.toMatchObject({ path: PATHS.collection });
    await outboxEmpties(page, 60_000);

    const api = await recordsApi(stack.recordsUrl, stack.password);
    const [site] = (await api.sites('query[code]=745001')).rows;
    const collections = (await api.collections(`query[site]=${String(site.id)}`)).rows;
    expect(collections).toHaveLength(1);
    expect(refId(collections[0].site)).toBe(Number(site.id));
    // The pool, sent after the retried collection, points at that one collection.
    const pools = (await api.pools(`query[collection]=${String(collections[0].id)}`)).rows;
    expect(pools.map((p) => Number(p.num_count))).toEqual([33]);

    // The records service honours Idempotency-Key, so the BFF sent the retry again under the same
    // key and the service replayed the record it had made: every POST carried the entry's key.
    const collectionKeys = keysPostedTo(stack, PATHS.collection);
    expect(collectionKeys.length).toBeGreaterThan(0);
    expect(new Set(collectionKeys)).toEqual(new Set([collectionKey]));
    expect(keysPostedTo(stack, PATHS.site)).toHaveLength(1);
    expect(keysPostedTo(stack, PATHS.pool)).toHaveLength(1);
    // The app did see the failure and retried: a 5xx for the lost answer, then the record.
    expect(browserPosts.filter((p) => p.startsWith(`/api${PATHS.collection} `))).toEqual([
      `/api${PATHS.collection} 502`,
      `/api${PATHS.collection} 201`,
    ]);
  });

  it('records a pool test once when its answer is lost, though pool tests have no natural key', async () => {
    // Still on the synced collection's page from the first test.
    const page = app.page;
    const proxy = stack.proxy!;
    const dropped = proxy.dropResponseOfNext({ method: 'POST', path: PATHS.poolTest });
    await recordPoolTest(page, 'Negative', 38.2);
    await expect(dropped).resolves.toMatchObject({ path: PATHS.poolTest });
    await outboxEmpties(page, 60_000);

    const api = await recordsApi(stack.recordsUrl, stack.password);
    const [site] = (await api.sites('query[code]=745001')).rows;
    const [collection] = (await api.collections(`query[site]=${String(site.id)}`)).rows;
    const [pool] = (await api.pools(`query[collection]=${String(collection.id)}`)).rows;
    const tests = (await api.poolTests(`query[pool]=${String(pool.id)}`)).rows;
    expect(tests).toHaveLength(1);
    expect(refId(tests[0].pool)).toBe(Number(pool.id));
    // Every POST of it carried the entry's key: a resend, never a second record.
    const keys = keysPostedTo(stack, PATHS.poolTest);
    expect(keys.length).toBeGreaterThan(0);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
  });
});
