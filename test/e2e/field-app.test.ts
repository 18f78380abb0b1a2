import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeViolations, seriousViolations, type AxeViolation } from './harness/axe';
import { ensureAppBuilt } from './harness/build-app';
import { LANDSCAPE, launchApp, PORTRAIT, type AppBrowser } from './harness/browser';
import {
  createCollectionAtSite,
  createSiteByCoordinates,
  createSiteByMap,
  navigate,
  recordPoolTest,
  signIn,
  signInAgain,
  syncNow,
  visible,
} from './harness/field-actions';
import { ROOT } from './harness/paths';
import { recordsApi } from './harness/records-api';
import { screenScreenshot } from './harness/screenshot';
import { markerCentres } from './harness/map-markers';
import { E2E_TILE_URL, startStack, type Stack } from './harness/stack';

/** Every main screen, checked with axe and photographed in both tablet orientations. */
const SCREENS = [
  'sign-in',
  'home',
  'sites',
  'new-site',
  'site-detail',
  'edit-site',
  'new-collection',
  'collection-detail',
  'edit-collection',
  'make-pools',
  'pool-test',
  'settings',
  'sync-parked',
  'sign-in-sheet',
];
const SIZES = [
  { name: '1280x800', viewport: LANDSCAPE },
  { name: '800x1280', viewport: PORTRAIT },
];

/** Tile requests go to E2E_TILE_URL's host (a closed port): a test can answer them itself. */
const TILE_ROUTE = `${new URL(E2E_TILE_URL.replace(/\{[a-z]\}/g, '0')).origin}/**`;

// One technician's morning on a tablet, through the real app, BFF and records service.
describe('field app in Chromium', () => {
  let stack: Stack;
  let app: AppBrowser;
  const axeByScreen = new Map<string, AxeViolation[]>();
  let collectionPath = '';

  /**
   * Accessibility check and screenshot of the screen on show, in landscape and in portrait
   * (test/.output/screens/<size>/<screen>.png).
   */
  async function inspect(name: string) {
    const page = app.page;
    for (const size of SIZES) {
      await page.setViewportSize(size.viewport);
      // Let layout (and Leaflet's resize handling) settle before looking.
      await page.evaluate(
        () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 150))),
      );
      axeByScreen.set(`${name} ${size.name}`, await seriousViolations(page));
      await screenScreenshot(page, size.name, name);
    }
    await page.setViewportSize(LANDSCAPE);
  }

  beforeAll(async () => {
    await ensureAppBuilt();
    stack = await startStack();
    app = await launchApp(stack.appUrl);
  });

  afterAll(async () => {
    await app?.dispose();
    await stack?.stop();
  });

  it('signs the technician in from the sign-in screen', async () => {
    await visible(app.page.getByRole('form', { name: 'Sign in' }));
    await inspect('sign-in');
    await signIn(app.page, { username: 'demo-tech', password: stack.password });
    await expect(app.page.getByRole('heading', { name: /^Hello,/ }).textContent()).resolves.toMatch(
      /Sam/,
    );
    await inspect('home');
  });

  it('got its first load compressed: the scripts crossed the network at a third of their size', async () => {
    // What this page fetched since it opened on a fresh profile (no service worker yet), as the
    // browser counted it: bytes as sent, and as the app's code once decoded.
    const scripts = await app.page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((e) => e as PerformanceResourceTiming)
        .filter((e) => new URL(e.name).pathname.endsWith('.js'))
        .map((e) => ({ name: e.name, sent: e.encodedBodySize, code: e.decodedBodySize })),
    );
    const large = scripts.filter((s) => s.code >= 4096);
    expect(large.length).toBeGreaterThan(0);
    for (const s of large) expect(s.sent, s.name).toBeLessThan(s.code / 2);
    const sent = scripts.reduce((sum, s) => sum + s.sent, 0);
    const code = scripts.reduce((sum, s) => sum + s.code, 0);
    expect(sent / code).toBeLessThan(0.4);
  });

  it('creates a site by tapping the map, though no map tiles can load', async () => {
    await navigate(app.page, 'Sites');
    await visible(app.page.getByRole('heading', { name: 'Sites' }));
    await visible(
      app.page.getByRole('region', { name: 'Map of sites' }).locator('.leaflet-container'),
    );
    await inspect('sites');
    await app.page.getByRole('link', { name: 'New site' }).click();
    await visible(app.page.getByRole('form', { name: 'Site' }));
    await inspect('new-site');
    await app.page.goBack();
    await createSiteByMap(app.page, { code: '731001', name: 'Dry Creek Outfall' });
    const form = app.page.getByRole('heading', { name: '731001 Dry Creek Outfall' });
    await visible(form);
    await inspect('site-detail');
    await app.page.getByRole('link', { name: 'Edit site' }).click();
    await visible(app.page.getByRole('form', { name: 'Site' }));
    await inspect('edit-site');
    await app.page.goBack();
    await visible(form);
  });

  it('records a collection at the new site with three abundance rows', async () => {
    const rows = [
      { species: 'Cx tarsalis', sex: 'F-Mixed', count: 57 },
      { species: 'Cx pipiens', sex: 'F-Mixed', count: 12 },
      { species: 'Cs inornata', sex: 'Male', count: 3 },
    ];
    await app.page.getByRole('link', { name: 'New collection here' }).click();
    await visible(app.page.getByRole('form', { name: 'Collection' }));
    await inspect('new-collection');
    await app.page.goBack();
    await createCollectionAtSite(app.page, rows, 'Windy night');
    collectionPath = new URL(app.page.url()).pathname;
    const table = app.page.getByRole('table');
    for (const r of rows) {
      await visible(
        table.getByRole('row', { name: new RegExp(`${r.species}\\s+${r.sex}\\s+${r.count}`) }),
      );
    }
    await expect(table.getByRole('row', { name: /Total\s+72/ }).count()).resolves.toBe(1);
    await inspect('collection-detail');
    await app.page.getByRole('link', { name: 'Edit collection' }).click();
    await visible(app.page.getByRole('form', { name: 'Collection' }));
    await inspect('edit-collection');
    await app.page.goBack();
    await visible(app.page.getByRole('link', { name: 'Make pools' }));
  });

  it('makes pools from the abundance rows and records a pool test', async () => {
    await app.page.getByRole('link', { name: 'Make pools' }).click();
    const poolsForm = app.page.getByRole('form', { name: 'Pools' });
    await visible(poolsForm);
    await inspect('make-pools');
    await poolsForm.getByRole('button', { name: 'Save pools' }).click();
    const pools = app.page.getByRole('list', { name: 'Pools' });
    // 57 Cx tarsalis make two pools (a full 50 and the 7 left); 12 Cx pipiens and 3 males one each.
    await expect
      .poll(() =>
        pools
          .getByRole('listitem')
          .filter({ has: app.page.getByRole('link', { name: 'Add test result' }) })
          .count(),
      )
      .toBe(4);
    await pools.getByRole('link', { name: 'Add test result' }).first().click();
    await visible(app.page.getByRole('form', { name: 'Pool test' }));
    await inspect('pool-test');
    await app.page.goBack();
    await recordPoolTest(app.page, 'Negative', 36.5);
    await visible(app.page.getByText(/by RT-PCR: Negative \(Ct 36\.5\)/));
  });

  it('shows the settings screen', async () => {
    await navigate(app.page, 'Settings');
    await visible(app.page.getByRole('button', { name: 'Sign out' }));
    await inspect('settings');
  });

  it('everything reached the records service once online', async () => {
    const api = await recordsApi(stack.recordsUrl, stack.password);
    await expect.poll(async () => (await api.poolTests()).rows.length, { timeout: 30_000 }).toBe(1);
    const [site] = (await api.sites('query[code]=731001')).rows;
    expect(site).toMatchObject({ code: '731001', name: 'Dry Creek Outfall' });
    const collections = (await api.collections(`query[site]=${site.id}`)).rows;
    expect(collections).toHaveLength(1);
    const pools = (await api.pools(`query[collection]=${collections[0].id}`)).rows;
    expect(pools.map((p) => Number(p.num_count)).sort((a, b) => a - b)).toEqual([3, 7, 12, 50]);
  });

  it('after going offline and reloading, shows all of it, served by the service worker', async () => {
    const page = app.page;
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await app.context.setOffline(true);
    await page.goto(collectionPath);
    await visible(page.getByRole('heading', { name: /^Collection / }));
    const table = page.getByRole('table');
    await visible(table.getByRole('row', { name: /Cx tarsalis\s+F-Mixed\s+57/ }));
    await visible(table.getByRole('row', { name: /Cs inornata\s+Male\s+3/ }));
    await visible(page.getByText(/by RT-PCR: Negative \(Ct 36\.5\)/));
    expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    await navigate(page, 'Sites');
    await visible(page.getByRole('list', { name: 'Sites' }).getByText('Dry Creek Outfall'));
    await app.context.setOffline(false);
  });

  it('gives the map zoom buttons of 48 px for a gloved finger', async () => {
    const page = app.page;
    await navigate(page, 'Sites');
    const map = page.getByRole('region', { name: 'Map of sites' });
    await visible(map.locator('.leaflet-container'));
    for (const name of ['Zoom in', 'Zoom out']) {
      const box = await map.getByRole('button', { name }).boundingBox();
      expect(box?.width, name).toBeGreaterThanOrEqual(48);
      expect(box?.height, name).toBeGreaterThanOrEqual(48);
    }
  });

  it('keeps the map controls under the sticky header when the page scrolls', async () => {
    const page = app.page;
    const map = page.getByRole('region', { name: 'Map of sites' });
    await visible(map.locator('.leaflet-container'));
    const zoomIn = map.getByRole('button', { name: 'Zoom in' });
    // Scrolled so the zoom buttons pass under the sticky header: the header stays on top.
    await page.setViewportSize({ width: LANDSCAPE.width, height: 500 });
    const header = (await page.getByRole('banner').boundingBox())!;
    const zoom = (await zoomIn.boundingBox())!;
    const headerMiddle = header.y + header.height / 2;
    await page.evaluate((dy) => window.scrollBy(0, dy), zoom.y + zoom.height / 2 - headerMiddle);
    const topmost = await page.evaluate(
      ([x, y]) => document.elementFromPoint(x, y)?.closest('header') !== null,
      [zoom.x + zoom.width / 2, headerMiddle],
    );
    expect(topmost, 'the map zoom control draws over the sticky header').toBe(true);
    await page.setViewportSize(LANDSCAPE);
    await page.evaluate(() => window.scrollTo(0, 0));
  });

  it('takes a finger landing beside a site marker, not only dead on it, as a tap on the site', async () => {
    const page = app.page;
    const map = page.getByRole('region', { name: 'Map of sites' });
    await visible(map.locator('.leaflet-container'));
    // A tap 20 px from a marker's centre (clear of every other marker) opens its site: Leaflet's
    // own hit area for these circles is 9 px.
    const mapBox = (await map.boundingBox())!;
    // The canvas's worker draws the dots after the map is shown: wait for them, then read them.
    await expect
      .poll(async () => (await markerCentres(page)).length, { message: 'no site marker drawn' })
      .toBeGreaterThan(0);
    const centres = await markerCentres(page);
    const onMap = (p: { x: number; y: number }) =>
      p.x > mapBox.x + 70 &&
      p.x < mapBox.x + mapBox.width - 10 &&
      p.y > mapBox.y + 10 &&
      p.y < mapBox.y + mapBox.height - 30;
    const offsets = [
      [20, 0],
      [-20, 0],
      [0, 20],
      [0, -20],
      [14, 14],
      [-14, 14],
      [14, -14],
      [-14, -14],
    ];
    const taps = centres.flatMap((c) => offsets.map(([dx, dy]) => ({ x: c.x + dx, y: c.y + dy })));
    const tap = taps.find(
      (p) => onMap(p) && centres.every((o) => Math.hypot(o.x - p.x, o.y - p.y) >= 18),
    );
    expect(tap, 'no marker with room beside it').toBeDefined();
    await page.mouse.click(tap!.x, tap!.y);
    // The tap shows the site first (a preview over the map); Open opens it.
    const preview = page.getByRole('region', { name: 'Site preview' });
    await visible(preview);
    expect(new URL(page.url()).pathname).toBe('/sites');
    await preview.getByRole('button', { name: 'Open' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toMatch(/^\/sites\/[^/]+$/);
    await visible(page.getByRole('link', { name: 'Edit site' }));
  });

  it('keeps the map tiles it has shown and shows them again with no connection', async () => {
    const page = app.page;
    const tile = await readFile(join(ROOT, 'public/icons/icon-192.png'));
    await app.context.route(TILE_ROUTE, (route) =>
      route.fulfill({
        status: 200,
        contentType: 'image/png',
        body: tile,
        headers: { 'Access-Control-Allow-Origin': '*' },
      }),
    );
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.goto('/sites');
    const map = page.getByRole('region', { name: 'Map of sites' });
    await visible(map.locator('img.leaflet-tile-loaded'), 30_000);
    await expect
      .poll(() =>
        page.evaluate(async () => (await (await caches.open('trapline-tiles')).keys()).length),
      )
      .toBeGreaterThan(0);

    await app.context.unroute(TILE_ROUTE);
    await app.context.setOffline(true);
    await page.reload();
    await visible(map.locator('img.leaflet-tile-loaded'), 30_000);
    await app.context.setOffline(false);
  });

  it('shows a change the server refused on the Sync screen, in the server’s words', async () => {
    const page = app.page;
    const api = await recordsApi(stack.recordsUrl, stack.password);
    await app.context.setOffline(true);
    await createSiteByCoordinates(page, {
      code: '731050',
      name: 'Parked Pond',
      lat: 38.61,
      lon: -121.47,
    });
    const taken = await api.createSite({
      code: '731050',
      name: 'Other Tech Pond',
      lat: 38.6,
      lon: -121.5,
    });
    expect(taken.status).toBe(201);
    await app.context.setOffline(false);
    const status = page.getByRole('region', { name: 'Sync status' });
    await visible(status.getByText('1 needs attention'), 30_000);
    await navigate(page, 'Sync');
    const parked = page.getByRole('region', { name: 'Changes that need attention' });
    await visible(parked.getByText(/731050 is already used by 'Other Tech Pond'/));
    await inspect('sync-parked');
  });

  it('asks for the password over the screen, and after Later the sync bar opens the sheet again', async () => {
    const page = app.page;
    await navigate(page, 'Settings');
    // The session ends on the server side (here: its cookie is gone).
    await app.context.clearCookies();
    await page.getByRole('button', { name: 'Refresh lookups' }).click();
    const sheet = page.getByRole('dialog', { name: 'Sign in again' });
    await visible(sheet);
    await inspect('sign-in-sheet');
    await sheet.getByRole('button', { name: 'Later' }).click();
    await sheet.waitFor({ state: 'hidden' });

    const bar = page.getByRole('region', { name: 'Sync status' });
    await bar.getByRole('button', { name: 'Sign in' }).click();
    await signInAgain(page, stack.password);
    await visible(bar.getByRole('button', { name: 'Sync now' }));
  });

  it('scrolls the site form on, not the map, when the wheel turns over the location map', async () => {
    const page = app.page;
    await navigate(page, 'Sites');
    await page.getByRole('link', { name: 'New site' }).click();
    const picker = page.getByRole('region', { name: 'Map: tap to place the site' });
    await visible(picker.locator('.leaflet-container'));
    const box = (await picker.boundingBox())!;
    const before = await page.evaluate(() => window.scrollY);
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, 300);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(before);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.goBack();
    await visible(page.getByRole('heading', { name: 'Sites' }));
  });

  it('refuses in the site form a code a site on the tablet uses, checked in the site index worker', async () => {
    const page = app.page;
    await page.getByRole('link', { name: 'New site' }).click();
    const code = page.getByLabel('Site code');
    // Proposed from every code on the tablet: never one in use.
    await expect.poll(() => code.inputValue()).not.toBe('');
    expect(await code.inputValue()).not.toBe('731001');
    await code.fill('731001');
    await page.getByRole('button', { name: 'Save site' }).click();
    await visible(page.getByText(/Site code 731001 is already used by 'Dry Creek Outfall'/));
    // The office renames it while the form stays open; a sync brings the new name to the form
    // (only the changed sites come over from the worker: the rest are the form's already).
    const api = await recordsApi(stack.recordsUrl, stack.password);
    const [site] = (await api.sites('query[code]=731001')).rows as { id: number }[];
    const renamed = await api.put(`/v1/site/${site.id}`, { name: 'Dry Creek Outfall (north)' });
    expect(renamed.status).toBe(200);
    await syncNow(page);
    const now = page.getByText(/Site code 731001 is already used by 'Dry Creek Outfall \(north\)'/);
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Save site' }).click();
          return now.count();
        },
        { timeout: 30_000 },
      )
      .toBe(1);
  });

  it('has no serious or critical accessibility violations on any main screen, in landscape and portrait', () => {
    expect([...axeByScreen.keys()].sort()).toEqual(
      SCREENS.flatMap((screen) => SIZES.map((size) => `${screen} ${size.name}`)).sort(),
    );
    const found = [...axeByScreen]
      .filter(([, v]) => v.length > 0)
      .map(([screen, v]) => `${screen}:\n${describeViolations(v)}`);
    expect(found.join('\n\n')).toBe('');
  });
});
