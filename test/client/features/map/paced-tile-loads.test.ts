import L from 'leaflet';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TILE_SLICE_MS, tilesWaiting } from '../../../../src/client/features/map/paced-tile-loads';

/**
 * What starting one tile's request costs the page's thread in this test (ms): 2–4 ms at 4x CPU
 * throttle in a trace of panning (paced-tile-loads.ts).
 */
const REQUEST_COST_MS = 4;

/** A map 800 x 600 px (jsdom lays nothing out: Leaflet reads the size from clientWidth/Height). */
function makeMap(): L.Map {
  const div = document.createElement('div');
  Object.defineProperty(div, 'clientWidth', { value: 800 });
  Object.defineProperty(div, 'clientHeight', { value: 600 });
  document.body.append(div);
  return L.map(div, { fadeAnimation: false, zoomAnimation: false }).setView([38.58, -121.49], 10);
}

/** Each tile request started, in order, with the task it was started in. */
let requests: { url: string; task: number }[] = [];
let task = 0;
let clock = 0;

beforeEach(() => {
  requests = [];
  task = 0;
  clock = 0;
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  vi.spyOn(performance, 'now').mockImplementation(() => clock);
  // Setting an image's src starts its request: it costs REQUEST_COST_MS of the page's time.
  vi.spyOn(HTMLImageElement.prototype, 'src', 'set').mockImplementation(function (
    this: HTMLImageElement,
    url: string,
  ) {
    requests.push({ url, task });
    clock += REQUEST_COST_MS;
    this.setAttribute('src', url);
  });
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  document.body.replaceChildren();
});

/** Lets every queued microtask run (a slice starts its tiles one microtask after another). */
async function settle(): Promise<void> {
  for (let i = 0; i < 100; i += 1) await Promise.resolve();
}

/** Runs the queued tasks one by one, each with its microtasks, numbering them. */
async function runTasks(): Promise<void> {
  await settle();
  while (vi.getTimerCount() > 0) {
    task += 1;
    vi.advanceTimersToNextTimer();
    await settle();
  }
}

describe('map tiles requested in slices', () => {
  it('requests a view’s tiles over several short tasks, the centre’s first, none while the map is being drawn', async () => {
    const map = makeMap();
    const layer = L.tileLayer('https://tiles.example/{z}/{x}/{y}.png').addTo(map);
    const tiles = map.getContainer().querySelectorAll('img.leaflet-tile');
    expect(tiles.length).toBeGreaterThan(8);
    // Nothing is requested in the task that made the grid (a zoom's end, the map's opening).
    expect(requests).toEqual([]);

    await runTasks();

    // Every tile of the view is requested, once.
    expect(requests.map((r) => r.url).sort()).toEqual(
      [...tiles].map((t) => t.getAttribute('src')).sort(),
    );
    expect(new Set(requests.map((r) => r.url)).size).toBe(tiles.length);
    // No task spends more than the slice's time on them (the last request of a slice may end it).
    const perTask = new Map<number, number>();
    for (const r of requests) perTask.set(r.task, (perTask.get(r.task) ?? 0) + 1);
    for (const count of perTask.values())
      expect((count - 1) * REQUEST_COST_MS).toBeLessThan(TILE_SLICE_MS);
    expect(perTask.size).toBeGreaterThan(1);
    // Tiles at the view's centre come first, its corners last (Leaflet's order is kept).
    const centre = map.project(map.getCenter(), map.getZoom()).divideBy(256);
    const fromCentre = (url: string) => {
      const [x, y] = url
        .split('/')
        .slice(-2)
        .map((part) => parseFloat(part));
      return Math.hypot(x + 0.5 - centre.x, y + 0.5 - centre.y);
    };
    expect(fromCentre(requests[0].url)).toBeLessThan(1.1);
    expect(fromCentre(requests.at(-1)!.url)).toBeGreaterThan(fromCentre(requests[0].url));
    expect(tilesWaiting()).toBe(0);
    layer.remove();
  });

  it('never requests the tiles of a zoom level left before their turn, and still finishes loading', async () => {
    const map = makeMap();
    const layer = L.tileLayer('https://tiles.example/{z}/{x}/{y}.png').addTo(map);
    const loaded = vi.fn();
    layer.on('load', loaded);
    map.setZoom(12, { animate: false });

    await runTasks();

    expect(requests.length).toBeGreaterThan(0);
    expect(requests.filter((r) => !r.url.startsWith('https://tiles.example/12/'))).toEqual([]);
    // Every tile left on the map loads (here: fails, as offline): the layer is done loading.
    for (const img of map.getContainer().querySelectorAll('img.leaflet-tile'))
      img.dispatchEvent(new Event('error'));
    await runTasks();
    expect(loaded).toHaveBeenCalled();
    layer.remove();
  });

  it('takes loaded tiles off the map without starting another image load for each', async () => {
    const map = makeMap();
    const layer = L.tileLayer('https://tiles.example/{z}/{x}/{y}.png').addTo(map);
    await runTasks();
    const first = [...map.getContainer().querySelectorAll('img.leaflet-tile')];
    for (const img of first) {
      Object.defineProperty(img, 'complete', { value: true });
      img.dispatchEvent(new Event('load'));
    }
    const setAttribute = vi.spyOn(HTMLImageElement.prototype, 'setAttribute');
    requests = [];
    // Far enough that none of the first view's tiles is kept.
    map.setView([34.05, -118.24], 10, { animate: false });
    await runTasks();

    expect(first.every((img) => !img.isConnected)).toBe(true);
    // Only the new view's tiles were requested; no removed tile was given another image.
    expect(requests.every((r) => r.url.startsWith('https://tiles.example/10/'))).toBe(true);
    expect(
      setAttribute.mock.calls.filter(([, value]) => String(value).startsWith('data:')),
    ).toEqual([]);
    layer.remove();
  });
});
