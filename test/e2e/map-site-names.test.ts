import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAppBuilt } from './harness/build-app';
import type { AppBrowser } from './harness/browser';
import {
  createSiteByCoordinates,
  launchSignedIn,
  navigate,
  visible,
} from './harness/field-actions';
import { startStack, type Stack } from './harness/stack';

/** Centres (page pixels) of the site circles drawn on the map's canvas (green or amber fill). */
async function markerCentres(page: Page): Promise<{ x: number; y: number }[]> {
  return page.evaluate(() => {
    const found: { x: number; y: number; n: number }[] = [];
    for (const canvas of document.querySelectorAll<HTMLCanvasElement>(
      '.leaflet-container canvas',
    )) {
      const ctx = canvas.getContext('2d');
      const rect = canvas.getBoundingClientRect();
      if (!ctx || canvas.width === 0 || rect.width === 0) continue;
      const scale = rect.width / canvas.width;
      const { data, width, height } = ctx.getImageData(0, 0, canvas.width, canvas.height);
      for (let y = 0; y < height; y += 2)
        for (let x = 0; x < width; x += 2) {
          const i = (y * width + x) * 4;
          const green = data[i] < 90 && data[i + 1] > 150 && data[i + 2] < 140;
          const amber = data[i] > 200 && data[i + 1] > 120 && data[i + 1] < 180 && data[i + 2] < 60;
          if (data[i + 3] < 100 || !(green || amber)) continue;
          const px = rect.left + x * scale;
          const py = rect.top + y * scale;
          const near = found.find((c) => Math.hypot(c.x / c.n - px, c.y / c.n - py) < 12);
          if (near) {
            near.x += px;
            near.y += py;
            near.n += 1;
          } else found.push({ x: px, y: py, n: 1 });
        }
    }
    return found.map((c) => ({ x: c.x / c.n, y: c.y / c.n }));
  });
}

describe('site names on the map in Chromium', () => {
  let stack: Stack;
  let app: AppBrowser;

  beforeAll(async () => {
    await ensureAppBuilt();
    stack = await startStack();
    app = await launchSignedIn(stack);
  });

  afterAll(async () => {
    await app?.dispose();
    await stack?.stop();
  });

  it('names a site on the map as it was typed, angle brackets and ampersand included', async () => {
    const page = app.page;
    // Names as technicians write them: a side of a ditch in brackets, an ampersand.
    const name = 'Ditch <north> & <b>pond</b>';
    // Beside the Zero Site (Elk Grove), so both are in the first view of the map.
    await createSiteByCoordinates(page, { code: '510101', name, lat: 38.452, lon: -121.338 });
    await navigate(page, 'Sites');
    const map = page.getByRole('region', { name: 'Map of sites' });
    await visible(map.locator('.leaflet-container'));
    await expect.poll(async () => (await markerCentres(page)).length).toBe(2);
    const names: string[] = [];
    let bold = 0;
    for (const c of await markerCentres(page)) {
      await page.mouse.move(c.x, c.y);
      const tooltip = page.locator('.leaflet-tooltip');
      await visible(tooltip);
      names.push((await tooltip.textContent()) ?? '');
      bold += await tooltip.locator('b').count();
      await page.mouse.move(1, 1);
      await expect.poll(() => tooltip.count()).toBe(0);
    }
    expect(names).toContain(`510101 ${name}`);
    // Nothing of a name is read as markup.
    expect(bold).toBe(0);
    expect(app.pageErrors).toEqual([]);
  });
});
