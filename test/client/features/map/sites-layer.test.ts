import L from 'leaflet';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SitesLayer, type MapTap } from '../../../../src/client/features/map/sites-layer';
import type { IndexedSite, MapFeature } from '../../../../src/client/lib/site-index';

const CENTRE = { lat: 38.58, lon: -121.49 };

const site = (n: number, at = CENTRE): IndexedSite => ({
  id: `site-${n}`,
  code: String(100_000 + n),
  name: `Creek ${n}`,
  state: 'synced',
  ...at,
});

const siteFeature = (n: number, at = CENTRE): MapFeature => ({
  kind: 'site',
  key: `s${n}`,
  lat: at.lat,
  lon: at.lon,
  site: site(n, at),
});

/** A map 800 x 600 px at the page's top left (jsdom lays nothing out: the sizes are given). */
function makeMap(): L.Map {
  const div = document.createElement('div');
  Object.defineProperty(div, 'clientWidth', { value: 800 });
  Object.defineProperty(div, 'clientHeight', { value: 600 });
  document.body.append(div);
  return L.map(div, { fadeAnimation: false, zoomAnimation: false }).setView(
    [CENTRE.lat, CENTRE.lon],
    14,
  );
}

/** Frames run by hand, one at a time. */
let frames: FrameRequestCallback[] = [];
async function nextFrame(): Promise<void> {
  const now = frames;
  frames = [];
  for (const run of now) run(performance.now());
  await Promise.resolve();
}

beforeEach(() => {
  frames = [];
  vi.spyOn(window, 'requestAnimationFrame').mockImplementation((run) => {
    frames.push(run);
    return frames.length;
  });
  vi.spyOn(window, 'cancelAnimationFrame').mockImplementation(() => undefined);
  // jsdom draws no canvas: a 2D context that accepts every call and draws nothing.
  const context = new Proxy({} as Record<string | symbol, unknown>, {
    get: (target, name) => (name in target ? target[name] : () => undefined),
  });
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(
    context as unknown as CanvasRenderingContext2D,
  );
});

afterEach(() => {
  vi.restoreAllMocks();
  document.body.replaceChildren();
});

describe('the sites layer', () => {
  it('draws the sites’ circles of a view before its cluster and group markers', async () => {
    const map = makeMap();
    const layer = new SitesLayer(map, () => undefined);
    // Every marker costs the whole frame's time: one goes on per frame.
    let clock = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => (clock += 100));
    const markers = () => map.getContainer().querySelectorAll('.leaflet-marker-icon').length;

    layer.show([
      { kind: 'cluster', key: 'c1', lat: 38.59, lon: -121.5, count: 120, zoomTo: 16 },
      {
        kind: 'group',
        key: 'g1',
        lat: 38.57,
        lon: -121.48,
        sites: [site(7), site(8)],
        zoomTo: 17,
      },
      siteFeature(1, { lat: 38.581, lon: -121.491 }),
      siteFeature(2, { lat: 38.579, lon: -121.489 }),
    ]);
    // The first frames change the canvas only, then the markers come.
    expect(layer.size).toBe(1);
    expect(markers()).toBe(0);
    await nextFrame();
    expect(layer.size).toBe(2);
    expect(markers()).toBe(0);
    await nextFrame();
    await nextFrame();
    expect(layer.size).toBe(4);
    expect(markers()).toBe(2);
    layer.remove();
  });

  it('takes a tap on a site, and ignores the click that ends a drag without measuring the page', async () => {
    const map = makeMap();
    const taps: MapTap[] = [];
    const layer = new SitesLayer(map, (tap) => taps.push(tap));
    layer.show([siteFeature(1)]);
    await nextFrame();
    const canvas = map.getContainer().querySelector('canvas')!;
    const at = map.latLngToContainerPoint([CENTRE.lat, CENTRE.lon]);
    const click = () =>
      canvas.dispatchEvent(
        new MouseEvent('click', { bubbles: true, clientX: at.x, clientY: at.y }),
      );
    const measured = vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect');

    // The click at the end of a drag (Leaflet's drag has moved the map).
    const dragging = map.dragging as unknown as { _draggable: { _moved: boolean } };
    dragging._draggable._moved = true;
    click();
    expect(taps).toEqual([]);
    expect(measured).not.toHaveBeenCalled();

    // A tap without a drag selects the site.
    dragging._draggable._moved = false;
    click();
    expect(taps).toEqual([{ kind: 'site', site: site(1) }]);
    layer.remove();
  });
});
