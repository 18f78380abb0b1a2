import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAppBuilt } from './harness/build-app';
import { launchApp, type AppBrowser } from './harness/browser';
import { signIn, syncNow } from './harness/field-actions';
import { startStack, type Stack } from './harness/stack';
import { localTable } from './harness/sync-checks';
import { PRECISION_ID } from '../../src/server/records/seed/lookup-data';
import type { Page } from 'playwright-core';

/** Sites more than two pages of the pull's list (1,000 a page): the walk spans three. */
const LOOK_ALIKES = 2_100;
const FIRST_CODE = 300_001;

/** The sites on the tablet that came from the server (a server id). */
const storedSites = async (page: Page) =>
  (await localTable(page, 'sites')).filter((s) => s.serverId !== null);

/**
 * A first pull of more sites than one page holds, read and stored in the pull writer worker (the
 * page hands it each page's body and keeps only ids), with the second page's answer lost on the
 * way: the pull fails after storing the first page, and the page read ahead of the lost one is
 * let go. The next sync must leave every site on the tablet once, each under its own server id.
 * The sites look alike on purpose (one name, one place, consecutive codes): a row stored from the
 * wrong place in a page would pass any check but its code.
 */
describe('sync: a first pull of many pages, one answer lost', () => {
  let stack: Stack;
  let app: AppBrowser;

  beforeAll(async () => {
    await ensureAppBuilt();
    stack = await startStack({ faultProxy: true });
    await stack.db.query(
      `insert into site (agency, user_id, code, name, coordinate_precision, lon, lat, add_date, updated)
       select 1, 2, ($1::int + g)::text, 'Look-alike Slough', $2, -121.5, 38.5, now(), now()
         from generate_series(0, $3::int - 1) g`,
      [FIRST_CODE, PRECISION_ID.gps, LOOK_ALIKES],
    );
    app = await launchApp(stack.appUrl);
  });

  afterAll(async () => {
    await app?.dispose();
    await stack?.stop();
  });

  /** Every active site of agency 1 on the server: its code by id. */
  async function sitesOnServer(): Promise<Map<number, string>> {
    const { rows } = await stack.db.query<{ id: number; code: string }>(
      'select id, code from site where agency = 1 and delete_date is null',
    );
    expect(rows.length).toBeGreaterThan(2 * 1_000);
    return new Map(rows.map((r) => [r.id, r.code]));
  }

  /** The tablet holds each of the server's sites once, each under its own id with its own code. */
  function expectEachSiteOnce(sites: Record<string, unknown>[], onServer: Map<number, string>) {
    const ids = sites.map((s) => s.serverId as number);
    expect(new Set(ids).size, 'each site once').toBe(sites.length);
    expect(new Set(ids)).toEqual(new Set(onServer.keys()));
    const misplaced = sites.filter(
      (s) => (s.data as { code: unknown }).code !== onServer.get(s.serverId as number),
    );
    expect(misplaced.map((s) => s.serverId)).toEqual([]);
  }

  it('stores every site once, each from its own row, after the failed walk is tried again', async () => {
    const { page } = app;
    // The first pull's second page of sites: the first page's answer is held until the loss of
    // the next one is armed (the proxy sees paths without their query).
    const site = { method: 'GET', path: '/v1/site' };
    const first = stack.proxy!.holdResponseOfNext(site);
    await signIn(page, { username: 'demo-tech', password: stack.password });
    await first.held;
    const lost = stack.proxy!.dropResponseOfNext(site);
    first.release();
    await lost;

    const onServer = await sitesOnServer();
    await expect
      .poll(
        async () => {
          const count = (await storedSites(page)).length;
          if (count < onServer.size) await syncNow(page).catch(() => undefined);
          return count;
        },
        { timeout: 60_000, interval: 1_000 },
      )
      .toBe(onServer.size);

    expectEachSiteOnce(await storedSites(page), onServer);
    // Read where it was meant to be: the page's thread handed the pages to the worker.
    expect(page.workers().map((w) => w.url())).toContainEqual(
      expect.stringContaining('pull-writer'),
    );
  });

  it('stores every site in the first pull when the pull writer worker cannot start', async () => {
    // A tablet whose browser cannot run the worker's script: its first pull must not depend on it.
    const tablet = await launchApp(stack.appUrl);
    try {
      await tablet.context.addInitScript(() => {
        const Real = window.Worker;
        window.Worker = class extends Real {
          constructor(url: string | URL, options?: WorkerOptions) {
            const broken = String(url).includes('pull-writer');
            super(broken ? 'data:text/javascript,throw new Error("no worker here")' : url, options);
          }
        };
      });
      await tablet.page.reload();
      await signIn(tablet.page, { username: 'demo-tech', password: stack.password });
      const onServer = await sitesOnServer();
      // No Sync now: the pull that follows sign-in is the one that must bring them.
      await expect
        .poll(async () => (await storedSites(tablet.page)).length, {
          timeout: 60_000,
          interval: 500,
        })
        .toBe(onServer.size);
      expectEachSiteOnce(await storedSites(tablet.page), onServer);
    } finally {
      await tablet.dispose();
    }
  });
});
