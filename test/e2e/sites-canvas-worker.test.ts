import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createSiteByCoordinates, navigate, visible } from './harness/field-actions';
import { markerCentres } from './harness/map-markers';
import { signedInTabletOnFreshStack } from './harness/signed-in-tablet';

/** The name the map shows under the pointer at each site dot, in the order of the dots. */
async function namesUnderPointer(page: Page): Promise<string[]> {
  const names: string[] = [];
  for (const c of await markerCentres(page)) {
    await page.mouse.move(c.x, c.y);
    const tooltip = page.locator('.leaflet-tooltip');
    await visible(tooltip);
    names.push((await tooltip.textContent()) ?? '');
    await page.mouse.move(1, 1);
    await expect.poll(() => tooltip.count()).toBe(0);
  }
  return names.sort();
}

/** How far `dragMap` moves the map (px). */
const DRAG = { x: 60, y: 40 };

/** A finger drags the map by DRAG, in six steps, from below its centre. */
async function dragMap(page: Page, map: Locator): Promise<void> {
  const box = (await map.locator('.leaflet-container').boundingBox())!;
  const from = { x: box.x + box.width / 2, y: box.y + box.height / 2 + 100 };
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  for (let step = 1; step <= 6; step += 1)
    await page.mouse.move(from.x + (step * DRAG.x) / 6, from.y + (step * DRAG.y) / 6);
  // The finger rests before it lifts: no fling (Leaflet's inertia) carries the map further.
  await page.waitForTimeout(200);
  await page.mouse.up();
}

// The sites' circles are drawn in a worker (sites-canvas.ts): the map shows them where they are,
// after a move too, and a tablet whose browser cannot load that worker still shows them.
describe('the sites canvas drawn in a worker', () => {
  const tablet = signedInTabletOnFreshStack();

  it('shows each site where it is, and again where it is after the map moved', async () => {
    const page = tablet.app.page;
    // Beside the Zero Site (Elk Grove), so both are in the first view of the map.
    await createSiteByCoordinates(page, {
      code: '512001',
      name: 'Worker Canvas Pond',
      lat: 38.452,
      lon: -121.338,
    });
    await navigate(page, 'Sites');
    const map = page.getByRole('region', { name: 'Map of sites' });
    await visible(map.locator('.leaflet-container'));
    await expect.poll(async () => (await markerCentres(page)).length).toBe(2);
    expect(await namesUnderPointer(page)).toContain('512001 Worker Canvas Pond');
    // Two placeholders of the worker's canvases: the one shown and the one a move redraws.
    expect(await map.locator('.leaflet-overlay-pane canvas').count()).toBe(2);

    // The pointer rests on a site while the map zooms in around it (the wheel): the site stays
    // under the pointer, and the hand cursor stays too, on the canvas drawn for the new zoom.
    const [dot] = await markerCentres(page);
    await page.mouse.move(dot.x, dot.y);
    const cursor = () =>
      page.evaluate(
        ([x, y]) => getComputedStyle(document.elementFromPoint(x, y)!).cursor,
        [dot.x, dot.y],
      );
    await expect.poll(cursor).toBe('pointer');
    // Which of the two placeholders is shown.
    const shown = () =>
      map
        .locator('.leaflet-overlay-pane canvas')
        .evaluateAll((all) => all.findIndex((c) => !c.classList.contains('sites-canvas-back')));
    const shownBefore = await shown();
    await page.mouse.wheel(0, -120);
    await expect.poll(shown).not.toBe(shownBefore);
    expect(await cursor()).toBe('pointer');
    await expect(page.locator('.leaflet-tooltip').count()).resolves.toBe(1);
    await page.mouse.move(1, 1);
    await expect.poll(async () => (await markerCentres(page)).length).toBe(2);

    // A drag: every dot follows it, none is left where it was.
    const before = await markerCentres(page);
    await dragMap(page, map);
    const expected = before.map((p) => ({ x: p.x + DRAG.x, y: p.y + DRAG.y }));
    // How far each dot is from where it should be now (px): at most 2 once the move is drawn.
    const misplaced = async () => {
      const after = await markerCentres(page);
      if (after.length !== expected.length) return Infinity;
      return Math.max(
        ...expected.map((e) => Math.min(...after.map((a) => Math.hypot(a.x - e.x, a.y - e.y)))),
      );
    };
    await expect.poll(misplaced).toBeLessThan(2);
    expect(tablet.app.pageErrors).toEqual([]);
  });

  it('draws the sites on the page where the worker cannot load', async () => {
    const { app } = tablet;
    await app.context.addInitScript(() => {
      const Real = window.Worker;
      window.Worker = class extends Real {
        constructor(url: string | URL, options?: WorkerOptions) {
          // A file the server does not have: the worker's script fails to load.
          super(
            options?.name === 'sites-canvas' ? '/assets/sites-canvas.worker-gone.js' : url,
            options,
          );
        }
      };
    });
    await app.page.reload();
    const page = app.page;
    const map = page.getByRole('region', { name: 'Map of sites' });
    await visible(map.locator('.leaflet-container'));
    await expect.poll(async () => (await markerCentres(page)).length).toBe(2);
    expect(await namesUnderPointer(page)).toContain('512001 Worker Canvas Pond');
    // One canvas of the page's own, where the two placeholders would be.
    expect(await map.locator('.leaflet-overlay-pane canvas').count()).toBe(1);
    expect(app.pageErrors).toEqual([]);
  });
});

/** Every message to the sites canvas's worker arrives 1.5 s late, in order: a slow tablet. */
function slowSitesCanvasWorker(): void {
  const Real = window.Worker;
  window.Worker = class extends Real {
    private readonly slow: boolean;
    constructor(url: string | URL, options?: WorkerOptions) {
      super(url, options);
      this.slow = options?.name === 'sites-canvas';
    }
    postMessage(message: unknown, transfer?: Transferable[] | StructuredSerializeOptions): void {
      const send = () => super.postMessage(message, transfer as StructuredSerializeOptions);
      if (this.slow) setTimeout(send, 1_500);
      else send();
    }
  };
}

/** Screenshots the map for `ms` and fails at the first dot more than 3 px from every `allowed`. */
async function onlyDotsAt(page: Page, allowed: { x: number; y: number }[], ms: number) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    for (const dot of await markerCentres(page)) {
      const off = Math.min(...allowed.map((a) => Math.hypot(a.x - dot.x, a.y - dot.y)));
      expect(
        off,
        `a dot at ${dot.x.toFixed(0)},${dot.y.toFixed(0)}, where no site is`,
      ).toBeLessThan(3);
    }
  }
}

// While the worker has not drawn a move yet, the map shows the circles it had, where they were:
// never the circles of the view left, moved to where the new view is.
describe('the sites canvas while its worker is slow', () => {
  const tablet = signedInTabletOnFreshStack();

  it('shows no circle where no site is, after a drag or a jump, until the worker has drawn', async () => {
    const { app, stack } = tablet;
    const page = app.page;
    await createSiteByCoordinates(page, {
      code: '512101',
      name: 'Slow Canvas Pond',
      lat: 38.452,
      lon: -121.338,
    });
    // The tablet stands 35 km from both sites: following it, the map shows neither.
    await app.context.grantPermissions(['geolocation'], { origin: stack.appUrl });
    await app.context.setGeolocation({ latitude: 38.7, longitude: -121.6, accuracy: 10 });
    await app.context.addInitScript(slowSitesCanvasWorker);
    await page.reload();
    await navigate(page, 'Sites');
    const map = page.getByRole('region', { name: 'Map of sites' });
    await visible(map.locator('.leaflet-container'));
    await expect.poll(async () => (await markerCentres(page)).length).toBe(2);

    const before = await markerCentres(page);
    await dragMap(page, map);
    const moved = before.map((p) => ({ x: p.x + DRAG.x, y: p.y + DRAG.y }));
    await onlyDotsAt(page, moved, 2_500);
    await expect.poll(async () => (await markerCentres(page)).length).toBe(2);

    // A jump (the view reset, not animated): the view has no site, so no dot, at any moment.
    await page.getByRole('button', { name: 'Follow me' }).click();
    await onlyDotsAt(page, [], 2_500);
    expect(app.pageErrors).toEqual([]);
  });
});
