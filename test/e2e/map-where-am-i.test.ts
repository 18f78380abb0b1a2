import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeViolations, seriousViolations } from './harness/axe';
import { ensureAppBuilt } from './harness/build-app';
import { growAndCount } from './harness/grown-sites';
import { LANDSCAPE, PORTRAIT, type AppBrowser } from './harness/browser';
import { launchSignedIn, navigate, syncNow, visible } from './harness/field-actions';
import { keptSiteSnapshot, userDbName } from './harness/local-db';
import { screenScreenshot } from './harness/screenshot';
import { startStack, type Stack } from './harness/stack';

/** Grown sites: enough that the district view is clusters (grow-sites.ts spreads them). */
const GROWN = 3_000;
/** Grown site 1 (code 100001), by grow-sites.ts's formula. */
const SITE_1 = {
  lat: 38.2 + 0.9 * ((1 * 0.7548776662466927) % 1),
  lon: -122.1 + 1.2 * ((1 * 0.6180339887498949) % 1),
};
/** `meters` south of a place (flat offset, small distances). */
const south = (at: { lat: number; lon: number }, meters: number) => ({
  latitude: at.lat - meters / 111_195,
  longitude: at.lon,
});

const mapRegion = (page: Page) => page.getByRole('region', { name: 'Map of sites' });

/** The centre of the tablet's position dot relative to the map's centre, in px. */
async function dotFromCentre(page: Page): Promise<number> {
  const map = (await mapRegion(page).locator('.leaflet-container').boundingBox())!;
  const dot = (await mapRegion(page).locator('.position-dot').boundingBox())!;
  return Math.hypot(
    dot.x + dot.width / 2 - (map.x + map.width / 2),
    dot.y + dot.height / 2 - (map.y + map.height / 2),
  );
}

/**
 * Taps Follow me and waits for it to be pressed. A failure says whether the button tapped is
 * still the one on screen (if not, the map's part or the screen was drawn afresh, and its state
 * with it) and what the region below the map shows.
 */
async function followMe(page: Page): Promise<Locator> {
  const follow = page.getByRole('button', { name: 'Follow me' });
  await follow.evaluate((b) => b.setAttribute('data-tapped', ''));
  await follow.click();
  try {
    await expect.poll(() => follow.getAttribute('aria-pressed')).toBe('true');
  } catch (err) {
    const same = await page.locator('[data-tapped]').count();
    const shown = await page
      .locator('main')
      .innerText()
      .catch(() => '(unreadable)');
    throw new Error(
      `Follow me not pressed; the button tapped is ${same ? 'still' : 'no longer'} on screen; ` +
        `the screen shows: ${shown.slice(0, 600)}`,
      { cause: err },
    );
  }
  return follow;
}

describe('map at scale and where am I', () => {
  let stack: Stack;
  let app: AppBrowser;
  let total: number;

  beforeAll(async () => {
    await ensureAppBuilt();
    stack = await startStack();
    total = await growAndCount(stack.db, GROWN);
    app = await launchSignedIn(stack);
  });

  afterAll(async () => {
    await app?.dispose();
    await stack?.stop();
  });

  it('clusters thousands of sites, lists the first of them and searches them all', async () => {
    const page = app.page;
    // Every map tile made from here on (the app is one page: this outlives the navigation).
    await page.evaluate(() => {
      const made = new Set<Element>();
      (window as unknown as { tilesMade: Set<Element> }).tilesMade = made;
      new MutationObserver((records) => {
        for (const r of records)
          for (const n of r.addedNodes) {
            if (!(n instanceof Element)) continue;
            if (n.matches('img.leaflet-tile')) made.add(n);
            for (const tile of n.querySelectorAll('img.leaflet-tile')) made.add(tile);
          }
      }).observe(document.body, { childList: true, subtree: true });
    });
    await navigate(page, 'Sites');
    await visible(
      page.getByText(`${total.toLocaleString('en-US')} sites`, { exact: true }),
      60_000,
    );
    const clusters = mapRegion(page).getByRole('button', { name: /sites here: zoom in$/ });
    await visible(clusters);
    // The map is framed on the sites before its tiles are made: the first open made no tile for
    // a view it never showed (each tile made is a tablet's main-thread time, at the worst moment).
    // Made, not seen: this stack's tile server answers nothing.
    await mapRegion(page).locator('img.leaflet-tile').first().waitFor({ state: 'attached' });
    await page.waitForTimeout(500);
    const tiles = await page.evaluate(() => {
      const made = [...(window as unknown as { tilesMade: Set<Element> }).tilesMade];
      return { made: made.length, dropped: made.filter((t) => !t.isConnected).length };
    });
    expect(tiles.made).toBeGreaterThan(0);
    expect(tiles.dropped).toBe(0);
    // The map's words and buttons are in the app's font, not the fonts Leaflet's stylesheet names
    // (each of those a font the browser looks for, in the task that makes the map).
    const fonts = await mapRegion(page).evaluate((region) => {
      const family = (selector: string) =>
        getComputedStyle(region.querySelector(selector)!).fontFamily;
      return {
        app: getComputedStyle(document.body).fontFamily,
        map: family('.leaflet-container'),
        zoom: family('.leaflet-control-zoom-in'),
        credit: family('.leaflet-control-attribution'),
      };
    });
    expect(fonts).toEqual({ app: fonts.app, map: fonts.app, zoom: fonts.app, credit: fonts.app });
    // Every cluster is a target a gloved finger hits.
    for (const box of await Promise.all((await clusters.all()).map((c) => c.boundingBox()))) {
      expect(box!.width).toBeGreaterThanOrEqual(44);
      expect(box!.height).toBeGreaterThanOrEqual(44);
    }
    // The list shows a page of sites, not thousands of rows, and says how to find the others.
    const list = page.getByRole('list', { name: 'Sites' });
    expect(await list.getByRole('listitem').count()).toBe(50);
    await visible(page.getByText(/^Showing 50 of [\d,]+: type a code or part of a name/));
    await page.getByLabel('Search sites').fill('scale site 2999');
    await visible(page.getByText(`1 of ${total.toLocaleString('en-US')} sites`, { exact: true }));
    await visible(list.getByRole('link', { name: /102999 Scale site 2999/ }));
    await page.getByLabel('Search sites').fill('');

    for (const [size, viewport] of [
      ['1280x800', LANDSCAPE],
      ['800x1280', PORTRAIT],
    ] as const) {
      await page.setViewportSize(viewport);
      await page.waitForTimeout(500);
      const violations = await seriousViolations(page);
      expect(violations, describeViolations(violations)).toEqual([]);
      await screenScreenshot(page, size, 'sites-clustered');
    }
    await page.setViewportSize(LANDSCAPE);
  });

  it('zooms in where a cluster is tapped', async () => {
    const page = app.page;
    const clusters = mapRegion(page).getByRole('button', { name: /sites here: zoom in$/ });
    await visible(clusters);
    const counts = async () =>
      (await clusters.evaluateAll((els) => els.map((e) => e.getAttribute('title') ?? ''))).map(
        (t) => Number(t.replace(/[^\d]/g, '')),
      );
    const before = Math.max(...(await counts()));
    const biggest = clusters.nth((await counts()).indexOf(before));
    await biggest.click();
    // Zoomed in: what was one cluster is now several smaller ones (or single sites).
    await expect
      .poll(async () => Math.max(0, ...(await counts())), { timeout: 15_000 })
      .toBeLessThan(before);
  });

  it('shows where the tablet is, the nearest sites with distance and direction, and follows on request', async () => {
    const page = app.page;
    await app.context.grantPermissions(['geolocation'], { origin: stack.appUrl });
    await app.context.setGeolocation({ ...south(SITE_1, 300), accuracy: 12 });
    await page.reload();
    await visible(mapRegion(page).locator('.leaflet-container'), 30_000);

    // Location already allowed: the position shows without asking, with its accuracy circle.
    await visible(page.getByTestId('position-accuracy'), 30_000);
    await expect(page.getByTestId('position-accuracy').textContent()).resolves.toMatch(/±12 m/);
    expect(await mapRegion(page).locator('.position-dot').count()).toBe(1);
    expect(await mapRegion(page).locator('path.position-accuracy').count()).toBe(1);

    const nearest = page.getByRole('list', { name: 'Nearest sites' });
    await visible(nearest);
    const first = nearest.getByRole('listitem').first();
    await expect.poll(() => first.textContent()).toMatch(/100001\s+Scale site 1\s+300 m N$/);
    expect(await nearest.getByRole('listitem').count()).toBe(5);

    // Follow me: the map centres on the tablet, and keeps doing so as it moves.
    const follow = await followMe(page);
    await expect.poll(() => dotFromCentre(page)).toBeLessThan(4);
    await app.context.setGeolocation({ ...south(SITE_1, 3_000), accuracy: 8 });
    await expect.poll(() => page.getByTestId('position-accuracy').textContent()).toMatch(/±8 m/);
    await expect.poll(() => dotFromCentre(page)).toBeLessThan(4);

    // Panning by hand stops following: the next fix moves the dot, not the map.
    const map = (await mapRegion(page).locator('.leaflet-container').boundingBox())!;
    await page.mouse.move(map.x + map.width / 2, map.y + map.height / 2);
    await page.mouse.down();
    await page.mouse.move(map.x + map.width / 2 + 150, map.y + map.height / 2 + 40, { steps: 6 });
    await page.mouse.up();
    await expect.poll(() => follow.getAttribute('aria-pressed')).toBe('false');
    // A new accuracy shows the fix arrived, so a failure below is the list's, not the fix's.
    await app.context.setGeolocation({ ...south(SITE_1, 600), accuracy: 6 });
    await expect.poll(() => page.getByTestId('position-accuracy').textContent()).toMatch(/±6 m/);
    await expect.poll(() => first.textContent()).toMatch(/100001\s+Scale site 1\s+600 m N$/);
    expect(await dotFromCentre(page)).toBeGreaterThan(40);

    // Tapping a nearest site opens it.
    await first.getByRole('button').click();
    await visible(page.getByRole('heading', { name: '100001 Scale site 1' }));
    expect(app.pageErrors).toEqual([]);
  });

  it('opens the clustered map and the list with no connection (the worker is precached)', async () => {
    const page = app.page;
    await app.context.setOffline(true);
    try {
      await page.goto('/sites');
      await visible(
        page.getByText(`${total.toLocaleString('en-US')} sites`, { exact: true }),
        30_000,
      );
      await visible(mapRegion(page).getByRole('button', { name: /sites here: zoom in$/ }));
    } finally {
      await app.context.setOffline(false);
    }
  });

  it('shows a site renamed on the server after a sync, and leaves the clusters on the map as they were', async () => {
    const page = app.page;
    await page.goto('/sites');
    const clusters = mapRegion(page).getByRole('button', { name: /sites here: zoom in$/ });
    await visible(clusters);
    // Every cluster drawn now is marked: a map rebuilt after the sync would have none of them.
    const marked = await clusters.evaluateAll((els) => {
      for (const el of els) el.setAttribute('data-drawn-before', '');
      return els.length;
    });
    await stack.db.query(
      `update site set name = 'Renamed on the server', updated = now()
        where agency = 1 and code = '102999'`,
    );
    await syncNow(page);
    await page.getByLabel('Search sites').fill('renamed on the server');
    // The pull stored it (the pull writer worker, in a browser) and the site index re-read it.
    await visible(
      page.getByRole('list', { name: 'Sites' }).getByRole('link', {
        name: /102999 Renamed on the server/,
      }),
      30_000,
    );
    expect(await mapRegion(page).locator('[data-drawn-before]').count()).toBe(marked);
    await page.getByLabel('Search sites').fill('');
    expect(app.pageErrors).toEqual([]);
  });

  it('opens Sites after the app restarts on what it showed last, then shows a site renamed meanwhile', async () => {
    const page = app.page;
    await page.goto('/sites');
    const count = page.getByText(`${total.toLocaleString('en-US')} sites`, { exact: true });
    await visible(count, 30_000);
    // What Sites showed is kept on the tablet for its next first opening.
    const kept = () => keptSiteSnapshot(page, userDbName(1, 'demo-tech'));
    await expect.poll(kept, { timeout: 30_000 }).toBe(total);
    // Renamed in the office while the app is closed; the app pulls it as it starts again.
    await stack.db.query(
      `update site set name = 'Renamed while the app was closed', updated = now()
        where agency = 1 and code = '102998'`,
    );
    await page.goto('/');
    await visible(page.getByRole('heading', { name: /^Hello,/ }), 30_000);
    await navigate(page, 'Sites');
    await visible(count, 30_000);
    await page.getByLabel('Search sites').fill('renamed while the app');
    // The sites as stored are read after the snapshot is shown, and what changed shows.
    await visible(
      page.getByRole('list', { name: 'Sites' }).getByRole('link', {
        name: /102998 Renamed while the app was closed/,
      }),
      30_000,
    );
    await page.getByLabel('Search sites').fill('');
    await visible(count);
    expect(app.pageErrors).toEqual([]);
  });
});
