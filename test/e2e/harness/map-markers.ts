import type { Page } from 'playwright-core';

/**
 * While the screenshot is taken, only the sites' canvases on show are drawn: the page around
 * them, the tiles and the markers with a count would otherwise be read as dots where their
 * colours come near the dots' (the hidden canvas is the worker's redraw not yet shown).
 */
const ONLY_SITE_CANVASES = `
  * { visibility: hidden !important; }
  .leaflet-overlay-pane canvas:not(.sites-canvas-back) { visibility: visible !important; }
`;

/**
 * Centres (page coordinates) of the site markers the map shows, found by their fill colour in a
 * screenshot of each map: the markers are circles on a canvas the app draws in a worker, not
 * elements a test could query, and a canvas handed to a worker cannot be read from the page.
 */
export async function markerCentres(page: Page): Promise<{ x: number; y: number }[]> {
  const found: { x: number; y: number }[] = [];
  for (const map of await page.locator('.leaflet-container').all()) {
    const box = await map.boundingBox();
    if (!box || box.width === 0 || box.height === 0) continue;
    const png = await page.screenshot({ clip: box, scale: 'css', style: ONLY_SITE_CANVASES });
    const centres = await page.evaluate(async (base64) => {
      const bytes = Uint8Array.from(atob(base64), (ch) => ch.charCodeAt(0));
      const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
      const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
      const ctx = canvas.getContext('2d')!;
      ctx.drawImage(bitmap, 0, 0);
      const { data, width, height } = ctx.getImageData(0, 0, bitmap.width, bitmap.height);
      const dots: { x: number; y: number; n: number }[] = [];
      for (let y = 0; y < height; y += 2)
        for (let x = 0; x < width; x += 2) {
          const i = (y * width + x) * 4;
          // The marker fills: green (#22c55e, sent) or amber (#f59e0b, not sent), 85 % opaque,
          // on the white of a screenshot where nothing else is drawn.
          const green = data[i] < 90 && data[i + 1] > 150 && data[i + 2] < 140;
          const amber = data[i] > 200 && data[i + 1] > 120 && data[i + 1] < 180 && data[i + 2] < 60;
          if (!(green || amber)) continue;
          const near = dots.find((c) => Math.hypot(c.x / c.n - x, c.y / c.n - y) < 12);
          if (near) {
            near.x += x;
            near.y += y;
            near.n += 1;
          } else dots.push({ x, y, n: 1 });
        }
      return dots.map((c) => ({ x: c.x / c.n, y: c.y / c.n }));
    }, png.toString('base64'));
    for (const c of centres) found.push({ x: box.x + c.x, y: box.y + c.y });
  }
  return found;
}
