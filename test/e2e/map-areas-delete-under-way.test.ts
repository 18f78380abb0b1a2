import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAppBuilt } from './harness/build-app';
import type { AppBrowser } from './harness/browser';
import { launchSignedIn, navigate, visible } from './harness/field-actions';
import { tilePng } from '../helpers/tile-png';
import { startStack, type Stack } from './harness/stack';

/** A loopback tile server whose answers wait for release() while `hold` is on. */
async function startTileServer() {
  const held: (() => void)[] = [];
  const tiles = {
    template: '',
    hold: false,
    held,
    release() {
      tiles.hold = false;
      for (const answer of held.splice(0)) answer();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const answer = (res: ServerResponse, path: string) => {
    const m = /^\/(\d+)\/(\d+)\/(\d+)\.png$/.exec(path);
    res.setHeader('access-control-allow-origin', '*');
    if (!m) return res.writeHead(404).end();
    const [z, x, y] = m.slice(1).map(Number);
    res.writeHead(200, { 'content-type': 'image/png', 'cache-control': 'no-store' });
    res.end(tilePng(z, x, y));
  };
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    if (tiles.hold) held.push(() => answer(res, path));
    else answer(res, path);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  tiles.template = `http://127.0.0.1:${(server.address() as AddressInfo).port}/{z}/{x}/{y}.png`;
  return tiles;
}

const AREA = 'Davis sloughs';

describe('offline map areas in Chromium: deleting the area being downloaded', () => {
  let tiles: Awaited<ReturnType<typeof startTileServer>>;
  let stack: Stack;
  let app: AppBrowser;

  beforeAll(async () => {
    await ensureAppBuilt();
    tiles = await startTileServer();
    stack = await startStack({ tileUrl: tiles.template, tileBulkDownload: true });
    app = await launchSignedIn(stack);
  });

  afterAll(async () => {
    tiles?.release();
    await app?.dispose();
    await stack?.stop();
    await tiles?.close();
  });

  it('stops the download: the area does not come back as saved, and no tile stays stored', async () => {
    const page = app.page;
    await navigate(page, 'Sites');
    await page.getByRole('link', { name: 'Offline map areas' }).click();
    const form = page.getByRole('form', { name: 'Download an area' });
    await form.getByLabel('A rectangle I draw on the map or enter').check();
    await form.getByLabel('North (latitude)').fill('38.6');
    await form.getByLabel('South (latitude)').fill('38.5');
    await form.getByLabel('West (longitude)').fill('-121.8');
    await form.getByLabel('East (longitude)').fill('-121.6');
    await form.getByLabel('From zoom').selectOption('10');
    await form.getByLabel('To zoom').selectOption('13');
    await form.getByLabel('Name').fill(AREA);
    await visible(form.getByTestId('area-estimate').getByText(/^about /));

    // One bar of signal: the first tiles are on their way when the technician deletes the area.
    tiles.hold = true;
    await form.getByRole('button', { name: 'Download area' }).click();
    await expect.poll(() => tiles.held.length, { timeout: 30_000 }).toBe(4);
    const list = page.getByRole('list', { name: 'Saved map areas' });
    await list.getByRole('button', { name: `Delete ${AREA}` }).click();
    await list
      .getByRole('group', { name: `Delete ${AREA}?` })
      .getByRole('button', { name: 'Delete area' })
      .click();
    await visible(page.getByText(new RegExp(`^${AREA} deleted: `)));
    // The signal comes back.
    tiles.release();
    await page.waitForTimeout(2_000);
    await visible(page.getByText('No saved map areas yet on this tablet.'));
    expect(
      await page.evaluate(() => JSON.parse(localStorage.getItem('trapline.mapAreas') ?? '[]')),
    ).toEqual([]);
    expect(
      await page.evaluate(async () =>
        (await caches.has('trapline-areas'))
          ? (await (await caches.open('trapline-areas')).keys()).length
          : 0,
      ),
    ).toBe(0);
    expect(app.pageErrors).toEqual([]);
  });
});
