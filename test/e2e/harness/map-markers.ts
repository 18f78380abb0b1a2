import type { Page } from 'playwright-core';

/**
 * Centres (page coordinates) of the site markers the map drew on its canvases, found by their fill
 * colour: the markers are dots on canvas tiles, not elements a test could query. Each map's
 * canvases are first drawn into one picture of the map as it is on screen, so a dot drawn across
 * two tiles (half on each) is found as the one dot it is.
 */
export async function markerCentres(page: Page): Promise<{ x: number; y: number }[]> {
  return page.evaluate(() => {
    const found: { x: number; y: number; n: number }[] = [];
    for (const map of document.querySelectorAll<HTMLElement>('.leaflet-container')) {
      const box = map.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      const picture = document.createElement('canvas');
      picture.width = Math.round(box.width);
      picture.height = Math.round(box.height);
      const ctx = picture.getContext('2d');
      if (!ctx) continue;
      for (const canvas of map.querySelectorAll('canvas')) {
        const rect = canvas.getBoundingClientRect();
        if (canvas.width === 0 || rect.width === 0) continue;
        ctx.drawImage(canvas, rect.left - box.left, rect.top - box.top, rect.width, rect.height);
      }
      const { data, width, height } = ctx.getImageData(0, 0, picture.width, picture.height);
      for (let y = 0; y < height; y += 2)
        for (let x = 0; x < width; x += 2) {
          const i = (y * width + x) * 4;
          // The marker fills: green (#22c55e, sent) or amber (#f59e0b, not sent), 85 % opaque.
          const green = data[i] < 90 && data[i + 1] > 150 && data[i + 2] < 140;
          const amber = data[i] > 200 && data[i + 1] > 120 && data[i + 1] < 180 && data[i + 2] < 60;
          if (data[i + 3] < 100 || !(green || amber)) continue;
          const px = box.left + x;
          const py = box.top + y;
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
