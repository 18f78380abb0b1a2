import type { Page } from 'playwright-core';

/**
 * Centres (page coordinates) of the site markers the map drew on its canvas, found by their fill
 * colour: the markers are canvas circles, not elements a test could query.
 */
export async function markerCentres(page: Page): Promise<{ x: number; y: number }[]> {
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
          // The marker fills: green (#22c55e, sent) or amber (#f59e0b, not sent), 85 % opaque.
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
