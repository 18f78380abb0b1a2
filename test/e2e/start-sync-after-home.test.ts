import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { PRECISION_ID } from '../../src/server/records/seed/lookup-data';
import { syncNow, visible } from './harness/field-actions';
import { screenScreenshots } from './harness/screenshot';
import { signedInTablet, tabletOnFreshStack } from './harness/signed-in-tablet';
import type { Stack } from './harness/stack';
import { localTable } from './harness/sync-checks';

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
 * A tablet opened in the morning (issue 40): the sync of the app's start pulled the office's
 * changes on the page's thread while Home was being drawn, in long tasks a tap waited on (on
 * a mid-range tablet Home's first second was 0.3–0.8 s of blocked thread, Lighthouse). Home
 * comes first now, the start-up pull once the page is loaded and idle; a tap on Sync now is
 * never held.
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

    // The page's idle callbacks are held until the test says the page is idle.
    await page.addInitScript(() => {
      const held: IdleRequestCallback[] = [];
      window.requestIdleCallback = (callback) => held.push(callback);
      (window as { pageIdle?: () => void }).pageIdle = () => {
        for (const callback of held.splice(0))
          callback({ didTimeout: false, timeRemaining: () => 50 });
      };
    });
    const siteRequests: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/v1/site') siteRequests.push(request.url());
    });
    await page.reload();
    await visible(page.getByRole('heading', { name: /^Hello,/ }));
    // Home is drawn and usable, and no pull has taken the page's thread meanwhile.
    await page.waitForTimeout(2_000);
    expect(siteRequests).toEqual([]);
    await visible(page.getByRole('navigation', { name: 'Main' }));

    await page.evaluate(() => (window as { pageIdle?: () => void }).pageIdle?.());
    await expect
      .poll(() => sitesOnTablet(page), { timeout: 90_000, interval: 1_000 })
      .toBe(before + OVERNIGHT);
    expect(siteRequests.length).toBeGreaterThan(0);
    await screenScreenshots(page, 'home-after-start-pull');
    expect(app.pageErrors).toEqual([]);
  });

  it('syncs at once on Sync now, even while the page has not been idle yet', async () => {
    const { stack, app } = tablet;
    // A tab on a page that is never idle: the start's sync would wait (its timeout aside).
    await app.page.close();
    const page = await app.context.newPage();
    await page.addInitScript(() => {
      window.requestIdleCallback = () => 0;
    });
    await page.goto(`${stack.appUrl}/`);
    await visible(page.getByRole('heading', { name: /^Hello,/ }));
    const before = await sitesOnTablet(page);
    await officeAddsSites(stack, 620_001, 3);

    await syncNow(page);
    await expect
      .poll(() => sitesOnTablet(page), { timeout: 30_000, interval: 500 })
      .toBe(before + 3);
    expect(app.pageErrors).toEqual([]);
  });
});
