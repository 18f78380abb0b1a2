import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoSites } from '../../src/server/records/seed';
import { ensureAppBuilt } from './harness/build-app';
import type { AppBrowser } from './harness/browser';
import { launchSignedIn, localIdFromUrl, navigate, visible } from './harness/field-actions';
import { inspectScreen } from './harness/inspect-screen';
import { markerCentres } from './harness/map-markers';
import { startStack, type Stack } from './harness/stack';

/** 300 m south of Discovery Park boat launch, a demo site (demo-sites.ts: 38.601, -121.5055). */
const SOUTH_OF_DISCOVERY = { latitude: 38.601 - 300 / 111_195, longitude: -121.5055 };

const mapRegion = (page: Page) => page.getByRole('region', { name: 'Map of sites' });

/** Site dots (canvas) and group / cluster markers (buttons) drawn on the map, by their centres. */
async function drawnMarkers(page: Page): Promise<{ x: number; y: number }[]> {
  const buttons = mapRegion(page).getByRole('button', { name: /sites here/ });
  const boxes = await Promise.all((await buttons.all()).map((b) => b.boundingBox()));
  return [
    ...(await markerCentres(page)),
    ...boxes
      .filter((b) => b !== null)
      .map((b) => ({ x: b.x + b.width / 2, y: b.y + b.height / 2 })),
  ];
}

/** The closest two markers on screen (px). */
function closest(markers: { x: number; y: number }[]): number {
  let best = Infinity;
  for (let i = 0; i < markers.length; i += 1)
    for (let j = i + 1; j < markers.length; j += 1)
      best = Math.min(best, Math.hypot(markers[i].x - markers[j].x, markers[i].y - markers[j].y));
  return best;
}

describe('the Sites map with the demo district: grouped markers, a preview before a site opens', () => {
  let stack: Stack;
  let app: AppBrowser;

  beforeAll(async () => {
    await ensureAppBuilt();
    stack = await startStack();
    await seedDemoSites(stack.db, new Date());
    app = await launchSignedIn(stack);
    // Location already allowed: the tablet stands 300 m south of Discovery Park boat launch.
    await app.context.grantPermissions(['geolocation'], { origin: stack.appUrl });
    await app.context.setGeolocation({ ...SOUTH_OF_DISCOVERY, accuracy: 12 });
  });

  afterAll(async () => {
    await app?.dispose();
    await stack?.stop();
  });

  it('groups the demo sites whose markers would overlap, at the zoom it opens and closer in', async () => {
    const page = app.page;
    await navigate(page, 'Sites');
    await visible(mapRegion(page).locator('.leaflet-container'));
    const groups = mapRegion(page).getByRole('button', {
      name: /sites here: (choose one|zoom in)$/,
    });
    await visible(groups);
    // Every site drawn, none on top of another: a finger's 44 px apart at least.
    await expect.poll(async () => closest(await drawnMarkers(page))).toBeGreaterThanOrEqual(44);
    for (const box of await Promise.all((await groups.all()).map((g) => g.boundingBox()))) {
      expect(box!.width).toBeGreaterThanOrEqual(44);
      expect(box!.height).toBeGreaterThanOrEqual(44);
    }
    await inspectScreen(page, 'sites-map-grouped');
    // Closer in, still none on top of another; the few close together are one group to list.
    await mapRegion(page).getByRole('button', { name: 'Zoom in', exact: true }).click();
    await visible(mapRegion(page).getByRole('button', { name: /sites here: choose one$/ }));
    await expect.poll(async () => closest(await drawnMarkers(page))).toBeGreaterThanOrEqual(44);
    expect(app.pageErrors).toEqual([]);
  });

  it('zooms into a big group on a tap, lists a small one’s sites, and shows the one chosen before opening it', async () => {
    const page = app.page;
    await page.goto('/sites');
    await visible(mapRegion(page).locator('.leaflet-container'));
    const big = mapRegion(page).getByRole('button', { name: /sites here: zoom in$/ });
    const small = mapRegion(page).getByRole('button', { name: /sites here: choose one$/ });
    // The map opens on the whole district: most of it is one group too big to list.
    await visible(big);
    const markersBefore = (await drawnMarkers(page)).length;
    await big.first().click();
    await visible(small);
    // The group buttons come a frame before the canvas has drawn the dots around them (its
    // worker draws them): a single count can catch half the view.
    await expect.poll(async () => (await drawnMarkers(page)).length).toBeGreaterThan(markersBefore);
    const group = small;
    const title = (await group.first().getAttribute('title')) ?? '';
    const count = Number(title.replace(/\D.*$/, ''));
    await group.first().click();
    const list = page.getByRole('list', { name: `${count} sites here` });
    await visible(list);
    expect(await list.getByRole('button').count()).toBe(count);
    // Each with its distance from the tablet.
    for (const text of await list.getByRole('button').allTextContents())
      expect(text).toMatch(/^\d{6} .+ [\d.]+ k?m [NESW]{1,2} of you$/);
    await inspectScreen(page, 'sites-map-group-list');
    const first = (await list.getByRole('button').first().textContent())!;
    const [code] = first.split(' ');
    await list.getByRole('button').first().click();
    const preview = page.getByRole('region', { name: 'Site preview' });
    await visible(preview);
    expect(await preview.textContent()).toContain(code);
    expect(new URL(page.url()).pathname).toBe('/sites');
    await preview.getByRole('button', { name: 'Open' }).click();
    await visible(page.getByRole('heading', { name: new RegExp(`^${code} `) }));
    expect(app.pageErrors).toEqual([]);
  });

  it('shows a tapped site with its distance, and starts a collection there from the preview', async () => {
    const page = app.page;
    await page.goto('/sites');
    await visible(mapRegion(page).locator('.leaflet-container'));
    // Discovery Park, found by name in the list of sites, then tapped on the map where it is.
    await page.getByLabel('Search sites').fill('Discovery Park');
    await page.getByRole('list', { name: 'Sites' }).getByRole('link').first().click();
    const siteId = localIdFromUrl(page, '/sites/');
    const heading = (await page.getByRole('heading', { level: 1 }).textContent())!;
    // Its page: a map of the site and how far the tablet is, and in which direction.
    await visible(
      page.getByRole('region', { name: `Map of ${heading}` }).locator('.leaflet-container'),
    );
    await expect
      .poll(() => page.getByTestId('site-distance').textContent())
      .toMatch(/^300 m N \(your position ±12 m\)$/);
    await inspectScreen(page, 'site-detail-map');

    await page.goto('/sites');
    await visible(mapRegion(page).locator('.leaflet-container'));
    // Zoomed onto the site (where it is drawn on its own), then tapped.
    await page.getByRole('button', { name: 'Follow me' }).click();
    await expect.poll(async () => (await markerCentres(page)).length).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Follow me' }).click();
    const map = (await mapRegion(page).boundingBox())!;
    // Following centred the map on the tablet at zoom 16 (1.87 m a pixel here): the site is
    // 300 m, 161 px, north of the centre. The dot nearest that point is tapped.
    const expected = { x: map.x + map.width / 2, y: map.y + map.height / 2 - 161 };
    const [site] = (await markerCentres(page)).sort(
      (a, b) =>
        Math.hypot(a.x - expected.x, a.y - expected.y) -
        Math.hypot(b.x - expected.x, b.y - expected.y),
    );
    expect(Math.hypot(site.x - expected.x, site.y - expected.y)).toBeLessThan(12);
    await page.mouse.click(site.x, site.y);
    const preview = page.getByRole('region', { name: 'Site preview' });
    await visible(preview);
    expect(await preview.textContent()).toContain(heading);
    await expect
      .poll(() => preview.getByTestId('preview-distance').textContent())
      .toBe('300 m N of you');
    for (const name of ['Open', 'New collection here']) {
      const box = (await preview
        .getByRole(name === 'Open' ? 'button' : 'link', { name })
        .boundingBox())!;
      expect(box.height, name).toBeGreaterThanOrEqual(48);
    }
    await inspectScreen(page, 'sites-map-preview');
    await preview.getByRole('link', { name: 'New collection here' }).click();
    await visible(page.getByRole('form', { name: 'Collection' }));
    expect(new URL(page.url()).search).toBe(`?site=${siteId}`);
    expect(app.pageErrors).toEqual([]);
  });

  it('places a new site with one tap beside the existing ones and saves it at once', async () => {
    const page = app.page;
    await navigate(page, 'Sites');
    await page.getByRole('link', { name: 'New site' }).click();
    const form = page.getByRole('form', { name: 'Site' });
    await visible(form);
    const picker = page.getByRole('region', { name: 'Map: tap to place the site' });
    await visible(picker.locator('.leaflet-container'));
    // The district's sites are on the placement map (dots, and groups where they would overlap).
    await expect
      .poll(
        async () =>
          (await markerCentres(page)).length + (await picker.locator('.site-group').count()),
      )
      .toBeGreaterThan(10);
    await form.getByLabel('Site code').fill('520001');
    await form.getByLabel('Site name').fill('American River bend');
    const box = (await picker.boundingBox())!;
    await page.mouse.click(box.x + box.width / 2 + 17, box.y + box.height / 2 - 11);
    await expect.poll(() => form.getByLabel('Latitude').inputValue()).not.toBe('');
    // The tap says how precise it is: nothing to correct before Save.
    await expect.poll(() => form.getByLabel('Coordinate precision').inputValue()).not.toBe('');
    await inspectScreen(page, 'site-form-placed-by-tap');
    await form.getByRole('button', { name: 'Save site' }).click();
    await visible(page.getByRole('heading', { name: '520001 American River bend' }));
    expect(app.pageErrors).toEqual([]);
  });
});
