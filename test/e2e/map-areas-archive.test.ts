import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tileInArea, tilesOf } from '../../src/client/features/map-areas/tile-math';
import { tileColour, tilePng } from '../helpers/tile-png';
import { writePmtiles } from '../helpers/write-pmtiles';
import { ensureAppBuilt } from './harness/build-app';
import type { AppBrowser } from './harness/browser';
import {
  createSiteByCoordinates,
  launchSignedIn,
  navigate,
  visible,
} from './harness/field-actions';
import { inspectScreen } from './harness/inspect-screen';
import { startStack, type Stack } from './harness/stack';

/** What the agency's archive covers: around the test sites, zoom 0 to 13. */
const ARCHIVE_BOX = { west: -121.7, south: 38.4, east: -121.25, north: 38.75 };
const ARCHIVE_MAX_ZOOM = 13;
const AREA_NAME = 'Archive test area';
/** The archive's metadata names its source; markup in it must reach the map as text. */
const ARCHIVE_ATTRIBUTION = 'Delta County GIS <b>2026</b> & OpenStreetMap contributors';

type DrawnTile = { tile: string; from: string; rgb: number[] };

/**
 * The archive layer's tiles on a map: which tile each canvas is (data-tile), where it came from
 * (data-from: archive, saved) and the colour drawn at its centre, for those drawn so far.
 */
function drawnTiles(map: Locator): Promise<DrawnTile[]> {
  return map.locator('canvas.leaflet-tile').evaluateAll((canvases) =>
    (canvases as HTMLCanvasElement[])
      .filter((c) => c.classList.contains('leaflet-tile-loaded') && c.dataset.from !== 'none')
      .map((c) => ({
        tile: c.dataset.tile ?? '',
        from: c.dataset.from ?? '',
        rgb: [...c.getContext('2d')!.getImageData(128, 128, 1, 1).data.slice(0, 3)],
      })),
  );
}

/** Each drawn tile shows its own image from the archive: green and blue say which tile it is. */
function expectOwnImages(tiles: DrawnTile[]): void {
  for (const t of tiles) {
    const [z, x, y] = t.tile.split('/').map(Number);
    const [, g, b] = tileColour(z, x, y);
    expect(t.rgb.slice(1), t.tile).toEqual([g, b]);
  }
}

/** Opens Sites and waits for its map to draw a few archive tiles; returns the map and them. */
async function sitesMapTiles(page: Page): Promise<{ map: Locator; tiles: DrawnTile[] }> {
  await navigate(page, 'Sites');
  const map = page.getByRole('region', { name: 'Map of sites' });
  await visible(map.locator('.leaflet-container'));
  await expect
    .poll(async () => (await drawnTiles(map)).length, { timeout: 30_000 })
    .toBeGreaterThan(3);
  return { map, tiles: await drawnTiles(map) };
}

function cacheKeys(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    if (!(await caches.has('trapline-areas'))) return [];
    return (await (await caches.open('trapline-areas')).keys()).map((r) => r.url);
  });
}

describe('offline map areas from the agency’s map archive (PMTiles) in Chromium', () => {
  let dir: string;
  let stack: Stack;
  let app: AppBrowser;
  let shownTiles = 0;
  let archiveReads = 0;

  beforeAll(async () => {
    await ensureAppBuilt();
    dir = mkdtempSync(join(tmpdir(), 'trapline-archive-e2e-'));
    const file = join(dir, 'area.pmtiles');
    const tiles = [...tilesOf(ARCHIVE_BOX, 0, ARCHIVE_MAX_ZOOM)].map((t) => ({
      ...t,
      data: tilePng(t.z, t.x, t.y),
    }));
    await writePmtiles(file, tiles, { attribution: ARCHIVE_ATTRIBUTION });
    // The tile server stays the closed port: every tile drawn comes from the archive.
    stack = await startStack({ tileArchive: file });
    stack.bff.app.server.on('request', (req: { url?: string }) => {
      if (req.url?.startsWith('/map/archive.pmtiles')) archiveReads++;
    });
    app = await launchSignedIn(stack);
  });

  afterAll(async () => {
    await app?.dispose();
    await stack?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('draws the Sites map from the archive', async () => {
    const page = app.page;
    await createSiteByCoordinates(page, {
      code: '520001',
      name: 'Slough W',
      lat: 38.55,
      lon: -121.5,
    });
    await createSiteByCoordinates(page, {
      code: '520002',
      name: 'Marsh E',
      lat: 38.6,
      lon: -121.45,
    });
    const { map, tiles } = await sitesMapTiles(page);
    expect(new Set(tiles.map((t) => t.from))).toEqual(new Set(['archive']));
    expectOwnImages(tiles);
    expect(await map.locator('img.leaflet-tile').count()).toBe(0);
    expect(archiveReads).toBeGreaterThan(0);
    // The archive's own attribution, as text (its markup is not markup on the page).
    const attribution = map.locator('.leaflet-control-attribution');
    await expect.poll(() => attribution.textContent()).toContain(ARCHIVE_ATTRIBUTION);
    expect(await attribution.locator('b').count()).toBe(0);
    await inspectScreen(page, 'map-archive-sites');
  });

  it('zoomed in past the archive’s deepest zoom, draws its deepest tiles enlarged', async () => {
    const page = app.page;
    const { map } = await sitesMapTiles(page);
    // Six zooms in from the sites' frame (zoom 12 or so): well past the archive's deepest.
    const zoomIn = map.getByRole('button', { name: 'Zoom in' });
    for (let i = 0; i < 6; i += 1) {
      await zoomIn.click();
      await page.waitForTimeout(300);
    }
    // Every tile in view is the archive's zoom-13 tile it lies in, drawn with its own image;
    // none is a tile of the deeper zoom the archive does not have (drawn empty).
    const tileZooms = () =>
      map
        .locator('canvas.leaflet-tile')
        .evaluateAll((cs) => [
          ...new Set(cs.map((c) => (c as HTMLElement).dataset.tile?.split('/')[0])),
        ]);
    await expect.poll(tileZooms, { timeout: 30_000 }).toEqual([String(ARCHIVE_MAX_ZOOM)]);
    await expect.poll(async () => (await drawnTiles(map)).length).toBeGreaterThan(0);
    expectOwnImages(await drawnTiles(map));
    expect(await map.locator(`canvas.leaflet-tile[data-from="none"]`).count()).toBe(0);
  });

  it('downloads an area out of the archive', async () => {
    const page = app.page;
    await page.getByRole('link', { name: 'Offline map areas' }).click();
    await visible(page.getByRole('heading', { name: 'Offline map areas', level: 1 }));
    const form = page.getByRole('form', { name: 'Download an area' });
    await form.getByLabel('From zoom').selectOption('10');
    await form.getByLabel('To zoom').selectOption('13');
    await form.getByLabel('Name').fill(AREA_NAME);
    // The size estimate reads sample tiles out of the archive too.
    await visible(form.getByTestId('area-estimate').getByText(/^about /));
    shownTiles = Number((await form.getByTestId('area-tiles').textContent())!.replace(/,/g, ''));
    expect(shownTiles).toBeGreaterThan(4);
    await form.getByRole('button', { name: 'Download area' }).click();
    await visible(page.getByRole('heading', { name: `${AREA_NAME} is saved` }), 60_000);
    await page.getByRole('button', { name: 'Done' }).click();

    const area = await page.evaluate(
      () => JSON.parse(localStorage.getItem('trapline.mapAreas') ?? '[]')[0],
    );
    const keys = await cacheKeys(page);
    expect(keys).toHaveLength(shownTiles);
    for (const url of keys) {
      const [z, x, y] = /\/map\/archive\/(\d+)\/(\d+)\/(\d+)$/.exec(url)!.slice(1).map(Number);
      expect(tileInArea({ z, x, y }, area), url).toBe(true);
    }
    const list = page.getByRole('list', { name: 'Saved map areas' });
    const item = (await list.getByRole('listitem').first().textContent()) ?? '';
    expect(item).toMatch(new RegExp(`Zoom 10–13 · ${shownTiles} tiles · [\\d.]+ MB · saved`));
    expect(item).not.toContain('Not complete');
  });

  it('offline after a reload, draws the map from the saved area', async () => {
    const page = app.page;
    const area = await page.evaluate(
      () => JSON.parse(localStorage.getItem('trapline.mapAreas') ?? '[]')[0],
    );
    await app.context.setOffline(true);
    await page.reload();
    const { map, tiles } = await sitesMapTiles(page);
    expectOwnImages(tiles);
    for (const t of tiles) {
      const [z, x, y] = t.tile.split('/').map(Number);
      expect(t.from, t.tile).toBe('saved');
      expect(tileInArea({ z, x, y }, area), t.tile).toBe(true);
    }
    // Zoomed out past the saved zooms, the map says no map is saved there.
    const note = map.getByRole('status').filter({ hasText: 'No saved map here' });
    const zoomOut = map.getByRole('button', { name: 'Zoom out' });
    for (let z = 0; z < 12 && (await note.count()) === 0; z += 1) {
      if ((await zoomOut.getAttribute('aria-disabled')) === 'true') break;
      await zoomOut.click();
    }
    await visible(note);
    await inspectScreen(page, 'map-archive-offline');
    await app.context.setOffline(false);
    // No `online` event need come (Chromium 150 kept navigator.onLine true through the offline
    // reload): the app's probe of the server finds the network, within its 30 s backoff.
    await expect.poll(() => note.count(), { timeout: 45_000 }).toBe(0);
  });

  it('deleting the area frees its tiles', async () => {
    const page = app.page;
    await page.getByRole('link', { name: 'Offline map areas' }).click();
    const list = page.getByRole('list', { name: 'Saved map areas' });
    await visible(list.getByText(AREA_NAME));
    const usage = await page.evaluate(async () => (await navigator.storage.estimate()).usage ?? 0);
    await list.getByRole('button', { name: `Delete ${AREA_NAME}` }).click();
    await list
      .getByRole('group', { name: `Delete ${AREA_NAME}?` })
      .getByRole('button', { name: 'Delete area' })
      .click();
    await visible(page.getByText(`${AREA_NAME} deleted: ${shownTiles} tiles freed.`));
    expect(await cacheKeys(page)).toEqual([]);
    const after = await page.evaluate(async () => (await navigator.storage.estimate()).usage ?? 0);
    console.log(`storage used: ${usage} bytes with the archive area, ${after} after deleting it`);
    expect(after).toBeLessThan(usage);

    // The rectangle picker draws the archive too.
    const form = page.getByRole('form', { name: 'Download an area' });
    await form.getByLabel('A rectangle I draw on the map or enter').check();
    const picker = form.getByRole('region', { name: 'Map to choose the area on' });
    await expect
      .poll(async () => (await drawnTiles(picker)).length, { timeout: 30_000 })
      .toBeGreaterThan(0);
    expectOwnImages(await drawnTiles(picker));
    await inspectScreen(page, 'map-archive-rectangle');
    expect(app.pageErrors).toEqual([]);
  });
});
