import type { Page, Route } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureAppBuilt } from './harness/build-app';
import type { AppBrowser } from './harness/browser';
import { ledger, printLedger, queuedEntries, type QueuedEntry } from './harness/chaos-ledger';
import { launchSignedIn, visible } from './harness/field-actions';
import { eventually } from './harness/local-db';
import { LOOK_ALIKE_ENTRIES, queueLookAlikes } from './harness/look-alikes';
import { startStack, type Stack } from './harness/stack';
import { localTable, outbox, outboxEmpties, PATHS, postsTo } from './harness/sync-checks';

/**
 * The tab is killed at three points of a drain of look-alike records (two same-day collections
 * with one trap and count at one site, equal pools, same-day tests of one pool). The app is then
 * opened in a new tab of the same profile: every record must end on the server exactly once, each
 * local record mapped to the server record its own create made.
 */
describe('chaos (browser): the tab is killed in the middle of a drain', () => {
  let stack: Stack;
  let app: AppBrowser | null = null;

  beforeAll(async () => {
    await ensureAppBuilt();
    stack = await startStack({ faultProxy: true });
  });
  afterEach(async () => {
    await app?.dispose();
    app = null;
  });
  afterAll(async () => {
    await stack?.stop();
  });

  /** A fresh profile, signed in, offline, with the look-alikes queued; returns the queue. */
  async function queueOffline(site: { code: string; name: string }): Promise<QueuedEntry[]> {
    const t0 = Date.now();
    app = await launchSignedIn(stack);
    await app.context.setOffline(true);
    await queueLookAlikes(app.page, site);
    const queued = await queuedEntries(app.page);
    console.log(`queued ${queued.length} look-alikes in ${Date.now() - t0} ms`);
    expect(queued).toHaveLength(LOOK_ALIKE_ENTRIES);
    return queued;
  }

  /** Kills the renderer of `page` (CDP Page.crash), as a tablet's OS does to a tab, and closes it. */
  async function crash(page: Page): Promise<void> {
    const cdp = await page.context().newCDPSession(page);
    const crashed = new Promise<void>((resolve) => page.once('crash', () => resolve()));
    void cdp.send('Page.crash').catch(() => undefined);
    await crashed;
    await page.close().catch(() => undefined);
  }

  /**
   * Kills the tab with `kill`, then opens the app again in a new tab of the same profile and lets
   * it drain on its own. The new tab is made (blank) before the kill: the browser stays up, as
   * on a tablet, and keeps its session cookie (Chromium drops it with its last window).
   */
  async function killAndReopen(kill: () => Promise<void>): Promise<Page> {
    const refusals: string[] = [];
    app!.context.on('response', (r) => {
      if (r.status() === 401 || r.status() >= 500)
        void r.text().then(
          (t) => refusals.push(`${r.request().method()} ${r.url()} ${r.status()} ${t}`),
          () => undefined,
        );
    });
    const tab = await app!.context.newPage();
    await kill();
    await tab.goto('/');
    await visible(tab.getByRole('heading', { name: /^Hello,/ }), 30_000);
    const t0 = Date.now();
    // A queue that never settles is judged as it stands (its entries count as stuck).
    await outboxEmpties(tab, 90_000).catch(async () => {
      const bar = await tab.getByRole('region', { name: 'Sync status' }).innerText();
      console.log(`the reopened tab did not settle: ${bar}\n${refusals.join('\n')}`);
    });
    console.log(`reopened tab settled in ${Date.now() - t0} ms`);
    return tab;
  }

  async function judge(name: string, tab: Page, queued: QueuedEntry[], siteCode: string) {
    const row = await ledger(name, tab, stack, queued, siteCode);
    printLedger(row);
    expect(row.details).toEqual([]);
    expect(row).toMatchObject({ entries: LOOK_ALIKE_ENTRIES, lost: 0, duplicated: 0, wrong: 0 });
    expect(row.stuck).toBe(0);
  }

  // Typing 9 records, a drain, a kill and a second drain in one real browser take a while.
  const CASE_MS = 300_000;

  it(
    '(a) after a collection POST left but before its answer arrived',
    async () => {
      const site = { code: '749101', name: 'Twin Traps Marsh A' };
      const queued = await queueOffline(site);
      const page = app!.page;
      const before = postsTo(stack, PATHS.collection);
      // The first look-alike's answer is held at the edge of the records service: it committed.
      const held = stack.proxy!.holdResponseOfNext({ method: 'POST', path: PATHS.collection });
      // Its twin leaves the tablet only once the first committed: the twin is the newer record,
      // the one a reconciliation looking newest first by site, date and trap would pick.
      let first = true;
      await page.route('**/api/v1/arthropod/collection', async (route: Route) => {
        if (route.request().method() === 'POST' && !first) await held.held;
        if (route.request().method() === 'POST') first = false;
        await route.continue();
      });
      await app!.context.setOffline(false);
      await held.held;
      // Its twin is sent beside it and acknowledged, so a reconciliation by a few fields can find it.
      const twins = new Set(queued.filter((e) => e.entity === 'collection').map((e) => e.localId));
      await eventually(
        async () =>
          (await localTable(page, 'collections')).filter(
            (c) => twins.has(String(c.localId)) && c.serverId !== null,
          ),
        (acked) => acked.length === 1 && postsTo(stack, PATHS.collection) - before === 2,
        { what: 'the twin collection acknowledged' },
      );
      const tab = await killAndReopen(async () => {
        await page.close();
        // The answer never arrives: the BFF cannot tell what the upstream did.
        held.drop();
      });
      await judge('tab killed: request left, no answer', tab, queued, site.code);
    },
    CASE_MS,
  );

  it(
    '(b) after a pool answer arrived but before the tablet stored it',
    async () => {
      const site = { code: '749102', name: 'Twin Traps Marsh B' };
      const queued = await queueOffline(site);
      const page = app!.page;
      // The first pool's answer arrives at the browser's network edge and goes no further.
      let arrived!: (status: number) => void;
      const answered = new Promise<number>((resolve) => (arrived = resolve));
      let caught = false;
      await page.route('**/api/v1/arthropod/pool', async (route: Route) => {
        if (route.request().method() !== 'POST' || caught) return route.continue();
        caught = true;
        const res = await route.fetch();
        arrived(res.status());
        // Never fulfilled: the page dies with the answer in hand.
      });
      await app!.context.setOffline(false);
      expect(await answered).toBe(201);
      const tab = await killAndReopen(() => crash(page));
      await judge('tab killed: answer arrived, not stored', tab, queued, site.code);
    },
    CASE_MS,
  );

  it(
    "(c) between the collections' acknowledgements and their pools' sends",
    async () => {
      const site = { code: '749103', name: 'Twin Traps Marsh C' };
      const queued = await queueOffline(site);
      const page = app!.page;
      const twins = new Set(queued.filter((e) => e.entity === 'collection').map((e) => e.localId));
      // Pools never leave this tab: every pool POST is kept at the browser's edge.
      const kept: Route[] = [];
      await page.route('**/api/v1/arthropod/pool', async (route: Route) => {
        if (route.request().method() !== 'POST') return route.continue();
        kept.push(route);
      });
      const before = postsTo(stack, PATHS.pool);
      await app!.context.setOffline(false);
      await eventually(
        async () => ({
          acked: (await localTable(page, 'collections')).filter(
            (c) => twins.has(String(c.localId)) && c.serverId !== null,
          ).length,
          waiting: (await outbox(page)).filter((e) => e.entity === 'collection').length,
        }),
        (s) => s.acked === 2 && s.waiting === 0 && kept.length > 0,
        { what: 'both collections acknowledged and a pool about to be sent' },
      );
      expect(postsTo(stack, PATHS.pool) - before).toBe(0);
      const tab = await killAndReopen(() => crash(page));
      await judge('tab killed: parent acked, children unsent', tab, queued, site.code);
    },
    CASE_MS,
  );
});
