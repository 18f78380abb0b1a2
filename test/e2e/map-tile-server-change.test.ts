import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAppBuilt } from './harness/build-app';
import type { AppBrowser } from './harness/browser';
import { launchSignedIn, navigate, visible } from './harness/field-actions';
import { inspectScreen } from './harness/inspect-screen';
import { startStack, type Stack } from './harness/stack';
import { startTileServer, type TileServer } from './harness/tile-server';

/** Sources of the map's tiles that the browser drew (loaded with pixels). */
function drawnTiles(page: Page): Promise<string[]> {
  return page
    .getByRole('region', { name: 'Map of sites' })
    .locator('img.leaflet-tile')
    .evaluateAll((imgs) =>
      (imgs as HTMLImageElement[])
        .filter((i) => i.complete && i.naturalWidth > 0)
        .map((i) => i.src),
    );
}

const origin = (template: string) => new URL(template.replace(/\{[a-z]\}/g, '0')).origin;

/**
 * A district sets up its tablets with one tile server and later moves to another (TILE_URL),
 * restarting Trapline on the same data. Every tablet keeps a copy of the app (the service
 * worker's precache, the worker itself) and nothing kept may pin the old tile server: one online
 * reload later the map draws the new server's tiles and an area downloads from it.
 */
describe('a tablet installed under one tile server, after the office moves to another', () => {
  let tilesA: TileServer;
  let tilesB: TileServer;
  let stack: Stack;
  let app: AppBrowser;

  beforeAll(async () => {
    await ensureAppBuilt();
    tilesA = await startTileServer();
    tilesB = await startTileServer();
    stack = await startStack({ tileUrl: tilesA.template, tileBulkDownload: true });
    app = await launchSignedIn(stack);
  });

  afterAll(async () => {
    await app?.dispose();
    await stack?.stop();
    await tilesA?.close();
    await tilesB?.close();
  });

  it('draws the new server’s tiles after one reload and downloads an area from it', async () => {
    const page = app.page;
    // Installed: a reload puts the page under its service worker, which answers from its copy.
    await page.reload();
    await expect
      .poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null))
      .toBe(true);
    await navigate(page, 'Sites');
    await expect
      .poll(async () => (await drawnTiles(page)).length, { timeout: 30_000 })
      .toBeGreaterThan(0);
    expect((await drawnTiles(page)).every((src) => src.startsWith(origin(tilesA.template)))).toBe(
      true,
    );

    await stack.restartBff({ tileUrl: tilesB.template, tileBulkDownload: true });
    await page.reload();
    await expect
      .poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null))
      .toBe(true);
    await navigate(page, 'Sites');
    await expect
      .poll(
        async () =>
          (await drawnTiles(page)).filter((src) => src.startsWith(origin(tilesB.template))).length,
        { timeout: 30_000 },
      )
      .toBeGreaterThan(0);
    expect(tilesB.requests.length).toBeGreaterThan(0);

    await page.getByRole('link', { name: 'Offline map areas' }).click();
    const form = page.getByRole('form', { name: 'Download an area' });
    await visible(form);
    await form.getByLabel('A rectangle I draw on the map or enter').check();
    await form.getByLabel('North (latitude)').fill('38.6');
    await form.getByLabel('South (latitude)').fill('38.5');
    await form.getByLabel('West (longitude)').fill('-121.8');
    await form.getByLabel('East (longitude)').fill('-121.6');
    await form.getByLabel('From zoom').selectOption('10');
    await form.getByLabel('To zoom').selectOption('12');
    await form.getByLabel('Name').fill('After the move');
    await visible(form.getByTestId('area-estimate').getByText(/^about /));
    await form.getByRole('button', { name: 'Download area' }).click();
    await visible(page.getByRole('heading', { name: 'After the move is saved' }), 60_000);
    const saved = await page.evaluate(async () =>
      (await (await caches.open('trapline-areas')).keys()).map((r) => r.url),
    );
    expect(saved.length).toBeGreaterThan(0);
    expect(saved.every((url) => url.startsWith(origin(tilesB.template)))).toBe(true);
    expect(app.pageErrors).toEqual([]);
  });

  it('says the map’s tile server is refused by this copy of the app, not that the signal is weak', async () => {
    const page = app.page;
    // A server this page's policy does not allow (plain http from another host).
    await stack.restartBff({
      tileUrl: 'http://tiles.example.invalid/{z}/{x}/{y}.png',
      tileBulkDownload: true,
    });
    await page.reload();
    await navigate(page, 'Sites');
    const map = page.getByRole('region', { name: 'Map of sites' });
    await visible(map.getByText(/refuses the map’s tile server \(tiles\.example\.invalid\)/));
    await visible(map.getByRole('button', { name: 'Reload' }));
    await inspectScreen(page, 'sites-map-tiles-refused');
    // The map's credit line is not OpenStreetMap's for another server.
    await expect(map.locator('.leaflet-control-attribution').textContent()).resolves.toContain(
      'Map tiles: tiles.example.invalid',
    );
  });
});
