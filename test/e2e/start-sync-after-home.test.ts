import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { PRECISION_ID } from '../../src/server/records/seed/lookup-data';
import {
  createCollectionAtSite,
  createSiteByCoordinates,
  syncNow,
  visible,
} from './harness/field-actions';
import { recordsApi } from './harness/records-api';
import { screenScreenshots } from './harness/screenshot';
import { signedInTablet, tabletOnFreshStack, type Tablet } from './harness/signed-in-tablet';
import type { Stack } from './harness/stack';
import { localTable, outboxEmpties, refId } from './harness/sync-checks';

/** Sites the office added overnight: two pages of the pull's list and more. */
const OVERNIGHT = 2_100;

/** Adds `count` sites to agency 1 on the server, codes from `firstCode` on. */
async function officeAddsSites(stack: Stack, firstCode: number, count: number): Promise<void> {
  await stack.db.query(
    `insert into site (agency, user_id, code, name, coordinate_precision, lon, lat, add_date, updated)
     select 1, 2, ($1::int + g)::text, 'Overnight Slough ' || g, $2, -121.5 + g * 0.0001, 38.5, now(), now()
       from generate_series(0, $3::int - 1) g`,
    [firstCode, PRECISION_ID.gps, count],
  );
}

const sitesOnTablet = async (page: Page) => (await localTable(page, 'sites')).length;

/**
 * The page's idle callbacks are held from its next load on, until the test calls
 * `window.pageIdle()`; with `never`, they are dropped (a page that is never idle). Either way
 * the callbacks' own timeout is ignored, so nothing the test does not say runs as if idle.
 */
async function holdIdleCallbacks(page: Page, { never = false } = {}): Promise<void> {
  await page.addInitScript((dropped) => {
    const held: IdleRequestCallback[] = [];
    window.requestIdleCallback = (callback) => (dropped ? 0 : held.push(callback));
    (window as { pageIdle?: () => void }).pageIdle = () => {
      for (const callback of held.splice(0))
        callback({ didTimeout: false, timeRemaining: () => 50 });
    };
  }, never);
}

/** Paths of the requests `page` makes from now on, for `paths` (GETs only). */
function getsOf(page: Page, paths: string[]): string[] {
  const seen: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (request.method() === 'GET' && paths.includes(pathname)) seen.push(pathname);
  });
  return seen;
}

/**
 * The tablet's tab replaced by a new one on a page that is never idle, Home drawn: the start's
 * sync waits there. `siteLists`: its GETs of the sites' list from its first load on.
 */
async function homeNeverIdle(tablet: Tablet): Promise<{ page: Page; siteLists: string[] }> {
  const { stack, app } = tablet;
  await app.page.close();
  const page = await app.context.newPage();
  app.page = page;
  await holdIdleCallbacks(page, { never: true });
  const siteLists = getsOf(page, ['/api/v1/site']);
  await page.goto(`${stack.appUrl}/`);
  await visible(page.getByRole('heading', { name: /^Hello,/ }));
  return { page, siteLists };
}

/**
 * A tablet opened in the morning (issue 40): the sync of the app's start pulled the office's
 * changes on the page's thread while Home was being drawn, in long tasks a tap waited on (on
 * a mid-range tablet Home's first second was 0.3–0.8 s of blocked thread, Lighthouse). Home
 * comes first now, the start-up pull and the lookups' refresh once the page is loaded and idle;
 * a tap on Sync now and a save are never held.
 */
describe('Home on a tablet opened in the morning, with the office’s new sites to pull', () => {
  const tablet = tabletOnFreshStack();

  it('draws Home first and pulls once the page is idle, bringing every site', async () => {
    const { stack, app } = tablet;
    const page = app.page;
    await signedInTablet(tablet);
    await visible(
      page.getByRole('region', { name: 'Sync status' }).getByText(/Last synced/),
      45_000,
    );
    const before = await sitesOnTablet(page);
    await officeAddsSites(stack, 610_001, OVERNIGHT);

    await holdIdleCallbacks(page);
    const siteLists = getsOf(page, ['/api/v1/site']);
    const lists = getsOf(page, ['/api/lookups', '/api/config']);
    await page.reload();
    await visible(page.getByRole('heading', { name: /^Hello,/ }));
    // Home is drawn and usable, and no pull has taken the page's thread meanwhile; the tablet's
    // lookups serve until the page is idle too.
    await page.waitForTimeout(2_000);
    expect(siteLists).toEqual([]);
    expect(lists).toEqual([]);
    await visible(page.getByRole('navigation', { name: 'Main' }));

    await page.evaluate(() => (window as { pageIdle?: () => void }).pageIdle?.());
    await expect
      .poll(() => sitesOnTablet(page), { timeout: 90_000, interval: 1_000 })
      .toBe(before + OVERNIGHT);
    expect(siteLists.length).toBeGreaterThan(0);
    expect([...new Set(lists)].sort()).toEqual(['/api/config', '/api/lookups']);
    await screenScreenshots(page, 'home-after-start-pull');
    expect(app.pageErrors).toEqual([]);
  }, 240_000); // A sign-in, a first pull and 2,100 sites pulled: past e2e's 120 s at load 20-28.

  it('sends a collection saved while the start’s sync waits, at once', async () => {
    const { stack, app } = tablet;
    const { page, siteLists } = await homeNeverIdle(tablet);

    await createSiteByCoordinates(page, {
      code: '630001',
      name: 'Waiting Start Pond',
      lat: 38.55,
      lon: -121.45,
    });
    await createCollectionAtSite(page, [{ species: 'Cx tarsalis', sex: 'F-Mixed', count: 12 }]);
    await outboxEmpties(page);

    const api = await recordsApi(stack.recordsUrl, stack.password);
    const [site] = (await api.sites('query[code]=630001')).rows;
    const collections = (await api.collections(`query[site]=${String(site.id)}`)).rows;
    expect(collections.map((c) => refId(c.site))).toEqual([Number(site.id)]);
    // Sent by the saves: the start's sync (its pull) is still waiting for the page to be idle.
    expect(siteLists).toEqual([]);
    expect(app.pageErrors).toEqual([]);
  });

  it('syncs at once on Sync now, even while the page has not been idle yet', async () => {
    const { stack, app } = tablet;
    const { page } = await homeNeverIdle(tablet);
    const before = await sitesOnTablet(page);
    await officeAddsSites(stack, 620_001, 3);

    await syncNow(page);
    await expect
      .poll(() => sitesOnTablet(page), { timeout: 30_000, interval: 500 })
      .toBe(before + 3);
    expect(app.pageErrors).toEqual([]);
  });
});
