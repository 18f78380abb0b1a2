import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countTiles, tileInArea } from '../../src/client/features/map-areas/tile-math';
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
import { startTileServer, type TileServer } from './harness/tile-server';

const AREA_NAME = 'Sacramento test area';

/** The download panel's counts: "12 of 240 tiles, 18 kB; 2 failed". */
async function downloadCounts(page: Page) {
  const text = (await page.getByTestId('download-status').textContent()) ?? '';
  const m = /^([\d,]+) of ([\d,]+) tiles, .*?(?:; ([\d,]+) failed)?$/.exec(text);
  if (!m) throw new Error(`unexpected status "${text}"`);
  const n = (s?: string) => Number((s ?? '0').replace(/,/g, ''));
  return { done: n(m[1]), total: n(m[2]), failed: n(m[3]) };
}

function cacheSize(page: Page, name: string): Promise<number> {
  return page.evaluate(async (cacheName) => {
    if (!(await caches.has(cacheName))) return 0;
    return (await (await caches.open(cacheName)).keys()).length;
  }, name);
}

function storageUsage(page: Page): Promise<number> {
  return page.evaluate(async () => (await navigator.storage.estimate()).usage ?? 0);
}

describe('offline map areas in Chromium', () => {
  let tiles: TileServer;
  let stack: Stack;
  let app: AppBrowser;
  /** The tile count the screen showed for the area (test 1), which the later tests check. */
  let shownTiles = 0;

  beforeAll(async () => {
    await ensureAppBuilt();
    tiles = await startTileServer();
    stack = await startStack({ tileUrl: tiles.template, tileBulkDownload: true });
    app = await launchSignedIn(stack);
  });

  afterAll(async () => {
    await app?.dispose();
    await stack?.stop();
    await tiles?.close();
  });

  it('downloads the sites’ area four tiles at a time, with pause, resume and retry', async () => {
    const page = app.page;
    await createSiteByCoordinates(page, {
      code: '510001',
      name: 'Creek N',
      lat: 38.55,
      lon: -121.5,
    });
    await createSiteByCoordinates(page, {
      code: '510002',
      name: 'Pond E',
      lat: 38.6,
      lon: -121.45,
    });
    await navigate(page, 'Sites');
    await page.getByRole('link', { name: 'Offline map areas' }).click();
    await visible(page.getByRole('heading', { name: 'Offline map areas', level: 1 }));

    const form = page.getByRole('form', { name: 'Download an area' });
    await expect(form.getByLabel(/Around the agency’s sites/).isChecked()).resolves.toBe(true);
    await form.getByLabel('From zoom').selectOption('9');
    await form.getByLabel('To zoom').selectOption('14');
    await form.getByLabel('Name').fill(AREA_NAME);
    await visible(form.getByTestId('area-estimate').getByText(/^about /));
    shownTiles = Number((await form.getByTestId('area-tiles').textContent())!.replace(/,/g, ''));
    expect(shownTiles).toBeGreaterThan(20);
    await expect(form.getByTestId('area-estimate').textContent()).resolves.toMatch(
      /^about [\d.]+ (kB|MB) \(3 sample tiles × [\d,]+\)$/,
    );
    await expect(form.getByTestId('storage-left').textContent()).resolves.toMatch(/ of /);
    await inspectScreen(page, 'map-areas-choose');

    // The tile server holds its answers: the app has exactly four tiles on their way.
    const before = tiles.requests.length;
    tiles.hold = true;
    tiles.failFirst = (z, x, y) => z === 14 && (x + y) % 4 === 0;
    await form.getByRole('button', { name: 'Download area' }).click();
    await expect.poll(() => tiles.held.length, { timeout: 30_000 }).toBe(4);
    await page.getByRole('button', { name: 'Pause' }).click();
    await visible(page.getByRole('heading', { name: `${AREA_NAME}: paused` }));
    tiles.release();
    // Paused: the four finish and no fifth is asked for.
    await expect
      .poll(async () => {
        const c = await downloadCounts(page);
        return c.done + c.failed;
      })
      .toBe(4);
    expect(tiles.requests.length - before).toBe(4);
    expect((await downloadCounts(page)).total).toBe(shownTiles);
    await inspectScreen(page, 'map-areas-download');

    await page.getByRole('button', { name: 'Resume' }).click();
    await visible(page.getByRole('heading', { name: /tiles? failed$/ }), 60_000);
    const afterRun = await downloadCounts(page);
    expect(afterRun.failed).toBeGreaterThan(0);
    expect(afterRun.done + afterRun.failed).toBe(shownTiles);
    // Every tile was asked for once.
    expect(tiles.requests.length - before).toBe(shownTiles);

    await page.getByRole('button', { name: 'Retry failed tiles' }).click();
    await visible(page.getByRole('heading', { name: `${AREA_NAME} is saved` }), 60_000);
    expect(await downloadCounts(page)).toEqual({ done: shownTiles, total: shownTiles, failed: 0 });
    expect(tiles.requests.length - before).toBe(shownTiles + afterRun.failed);
    expect(await cacheSize(page, 'trapline-areas')).toBe(shownTiles);

    await page.getByRole('button', { name: 'Done' }).click();
    const list = page.getByRole('list', { name: 'Saved map areas' });
    await visible(list.getByText(AREA_NAME));
    // Listed complete, with the bytes the tiles took (~25 kB a generated tile).
    const item = (await list.getByRole('listitem').first().textContent()) ?? '';
    expect(item).toMatch(
      new RegExp(`Zoom 9–14 · ${shownTiles.toLocaleString('en-US')} tiles · [\\d.]+ MB · saved`),
    );
    expect(item).not.toContain('Not complete');
    await inspectScreen(page, 'map-areas-saved');
  });

  it('draws the saved tiles offline after a reload, asking the tile server for nothing', async () => {
    const page = app.page;
    // Tiles the map showed online are in the runtime cache too: only the saved area may serve now.
    await page.evaluate(() => caches.delete('trapline-tiles'));
    const area = await page.evaluate(
      () => JSON.parse(localStorage.getItem('trapline.mapAreas') ?? '[]')[0],
    );
    await app.context.setOffline(true);
    const before = tiles.requests.length;
    await page.reload();
    await navigate(page, 'Sites');
    const map = page.getByRole('region', { name: 'Map of sites' });
    await visible(map.locator('.leaflet-container'));
    const drawn = () =>
      map
        .locator('img.leaflet-tile')
        .evaluateAll((imgs) =>
          (imgs as HTMLImageElement[])
            .filter((i) => i.complete && i.naturalWidth > 0)
            .map((i) => i.src),
        );
    await expect.poll(async () => (await drawn()).length, { timeout: 30_000 }).toBeGreaterThan(0);
    for (const src of await drawn()) {
      const [z, x, y] = /\/(\d+)\/(\d+)\/(\d+)\.png$/.exec(src)!.slice(1).map(Number);
      expect(tileInArea({ z, x, y }, area), src).toBe(true);
    }
    expect(tiles.requests.slice(before)).toEqual([]);
    // Zoomed out past the saved zoom range, the map says no map is saved there.
    const note = map.getByRole('status').filter({ hasText: 'No saved map here' });
    const zoomOut = map.getByRole('button', { name: 'Zoom out' });
    for (let z = 0; z < 12 && (await note.count()) === 0; z += 1) {
      // Leaflet marks the button aria-disabled at the map's least zoom.
      if ((await zoomOut.getAttribute('aria-disabled')) === 'true') break;
      await zoomOut.click();
    }
    await visible(note);
    await app.context.setOffline(false);
    // No `online` event need come (Chromium 150 kept navigator.onLine true through the offline
    // reload): the app's probe of the server finds the network, within its 30 s backoff.
    await expect.poll(() => note.count(), { timeout: 45_000 }).toBe(0);
  });

  it('deleting the area frees its tiles and the storage they took', async () => {
    const page = app.page;
    await page.getByRole('link', { name: 'Offline map areas' }).click();
    const list = page.getByRole('list', { name: 'Saved map areas' });
    await visible(list.getByText(AREA_NAME));
    const usage = await storageUsage(page);
    await list.getByRole('button', { name: `Delete ${AREA_NAME}` }).click();
    await list
      .getByRole('group', { name: `Delete ${AREA_NAME}?` })
      .getByRole('button', { name: 'Delete area' })
      .click();
    await visible(page.getByText('No saved map areas yet on this tablet.'));
    // The tiles are deleted after the area leaves the list; the screen says when they are freed.
    await visible(page.getByText(`${AREA_NAME} deleted: ${shownTiles} tiles freed.`));
    expect(await cacheSize(page, 'trapline-areas')).toBe(0);
    const after = await storageUsage(page);
    console.log(`storage used: ${usage} bytes with the area, ${after} after deleting it`);
    expect(after).toBeLessThan(usage);
    expect(app.pageErrors).toEqual([]);
  });

  it('deleting the area being downloaded stops it: the area does not come back as saved, and no tile stays stored', async () => {
    const page = app.page;
    const area = 'Davis sloughs';
    const form = page.getByRole('form', { name: 'Download an area' });
    await form.getByLabel('A rectangle I draw on the map or enter').check();
    await form.getByLabel('North (latitude)').fill('38.6');
    await form.getByLabel('South (latitude)').fill('38.5');
    await form.getByLabel('West (longitude)').fill('-121.8');
    await form.getByLabel('East (longitude)').fill('-121.6');
    await form.getByLabel('From zoom').selectOption('10');
    await form.getByLabel('To zoom').selectOption('13');
    await form.getByLabel('Name').fill(area);
    await visible(form.getByTestId('area-estimate').getByText(/^about /));

    // One bar of signal: the first tiles are on their way when the technician deletes the area.
    tiles.hold = true;
    await form.getByRole('button', { name: 'Download area' }).click();
    await expect.poll(() => tiles.held.length, { timeout: 30_000 }).toBe(4);
    const list = page.getByRole('list', { name: 'Saved map areas' });
    await list.getByRole('button', { name: `Delete ${area}` }).click();
    await list
      .getByRole('group', { name: `Delete ${area}?` })
      .getByRole('button', { name: 'Delete area' })
      .click();
    await visible(page.getByText(new RegExp(`^${area} deleted: `)));
    // The signal comes back.
    tiles.release();
    await page.waitForTimeout(2_000);
    await visible(page.getByText('No saved map areas yet on this tablet.'));
    expect(
      await page.evaluate(() => JSON.parse(localStorage.getItem('trapline.mapAreas') ?? '[]')),
    ).toEqual([]);
    expect(await cacheSize(page, 'trapline-areas')).toBe(0);
    expect(app.pageErrors).toEqual([]);
    // The next test starts from an empty form.
    await page.reload();
    await visible(page.getByRole('form', { name: 'Download an area' }));
  });

  it('draws a rectangle on a small map, counts its tiles, and downloads it', async () => {
    const page = app.page;
    const form = page.getByRole('form', { name: 'Download an area' });
    await form.getByLabel('A rectangle I draw on the map or enter').check();
    const map = form.getByRole('region', { name: 'Map to choose the area on' });
    await visible(map.locator('.leaflet-container'));
    await expect(form.getByTestId('area-tiles').textContent()).resolves.toBe('—');
    await form.getByLabel('From zoom').selectOption('12');
    await form.getByLabel('To zoom').selectOption('13');

    const edges = async () => {
      const value = async (label: string) => Number(await form.getByLabel(label).inputValue());
      return {
        north: await value('North (latitude)'),
        south: await value('South (latitude)'),
        west: await value('West (longitude)'),
        east: await value('East (longitude)'),
      };
    };
    const shown = async () =>
      Number((await form.getByTestId('area-tiles').textContent())!.replace(/,/g, ''));
    // One drag from corner to corner, as a finger or a mouse draws it.
    const drag = async (from: [number, number], to: [number, number]) => {
      await form.getByRole('button', { name: 'Draw on the map' }).click();
      // page.mouse works in the viewport: the map must be on screen.
      await map.scrollIntoViewIfNeeded();
      const box = (await map.boundingBox())!;
      await page.mouse.move(box.x + from[0], box.y + from[1]);
      await page.mouse.down();
      await page.mouse.move(box.x + to[0], box.y + to[1], { steps: 8 });
      await page.mouse.up();
      await expect
        .poll(() => form.getByRole('button', { name: 'Draw on the map' }).count())
        .toBe(1);
    };

    // Away from the zoom buttons at the top left (a drag starting on them is a button press).
    await drag([160, 60], [460, 260]);
    const big = await edges();
    expect(big.north).toBeGreaterThan(big.south);
    expect(big.east).toBeGreaterThan(big.west);
    await expect.poll(shown).toBe(countTiles(big, 12, 13));
    // Drawing again, smaller, replaces the area and its count; the map keeps its view.
    await drag([260, 120], [360, 200]);
    const small = await edges();
    expect(small.north).toBeLessThan(big.north);
    expect(small.south).toBeGreaterThan(big.south);
    await expect.poll(shown).toBe(countTiles(small, 12, 13));
    expect(countTiles(small, 12, 13)).toBeLessThan(countTiles(big, 12, 13));
    // The area is drawn on the map, and a tap is not a rectangle (the area stays).
    await expect(map.locator('.leaflet-overlay-pane path').count()).resolves.toBe(1);
    await form.getByRole('button', { name: 'Draw on the map' }).click();
    await map.scrollIntoViewIfNeeded();
    const box = (await map.boundingBox())!;
    await page.mouse.click(box.x + 500, box.y + 200);
    expect(await edges()).toEqual(small);
    await form.getByRole('button', { name: 'Cancel drawing' }).click();

    // "Use this view": the whole map, bigger than what was drawn inside it.
    await form.getByRole('button', { name: 'Use this view' }).click();
    const view = await edges();
    expect(view.north).toBeGreaterThan(small.north);
    expect(view.west).toBeLessThan(small.west);
    await expect.poll(shown).toBe(countTiles(view, 12, 13));
    await inspectScreen(page, 'map-areas-rectangle');

    await drag([260, 120], [360, 200]);
    const area = await edges();
    const total = countTiles(area, 12, 13);
    await expect.poll(shown).toBe(total);
    await visible(form.getByTestId('area-estimate').getByText(/^about /));
    await form.getByRole('button', { name: 'Download area' }).click();
    await visible(page.getByRole('heading', { name: 'Rectangle, zoom 12–13 is saved' }), 60_000);
    expect(await cacheSize(page, 'trapline-areas')).toBe(total);
    for (const url of await page.evaluate(async () =>
      (await (await caches.open('trapline-areas')).keys()).map((r) => r.url),
    )) {
      const [z, x, y] = /\/(\d+)\/(\d+)\/(\d+)\.png$/.exec(url)!.slice(1).map(Number);
      expect(tileInArea({ z, x, y }, { bbox: area, minZoom: 12, maxZoom: 13 }), url).toBe(true);
    }
    await page.getByRole('button', { name: 'Done' }).click();
    await visible(
      page.getByRole('list', { name: 'Saved map areas' }).getByText('Rectangle, zoom 12–13'),
    );
    expect(app.pageErrors).toEqual([]);
  });
});
