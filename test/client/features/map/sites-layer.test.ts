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

/** Circles drawn on the dots' tiles so far. */
let arcs = 0;

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
  // jsdom draws no canvas: a 2D context that accepts every call, draws nothing, and counts the
  // circles drawn (\`arc\`).
  arcs = 0;
  const context = new Proxy({} as Record<string | symbol, unknown>, {
    get: (target, name) =>
      name in target
        ? target[name]
        : () => {
            if (name === 'arc') arcs += 1;
          },
    set: (target, name, value) => {
      target[name] = value;
      return true;
    },
  });
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(
    context as unknown as CanvasRenderingContext2D,
  );
});

afterEach(() => {
  vi.restoreAllMocks();
  document.body.replaceChildren();
});

/** A click on the map's container at a point of it (the map sits at the page's top left). */
function clickAt(map: L.Map, at: L.Point): void {
  map
    .getContainer()
    .dispatchEvent(new MouseEvent('click', { bubbles: true, clientX: at.x, clientY: at.y }));
}

describe('the sites layer', () => {
  it('draws the sites’ dots at once, and its cluster and group markers a frame at a time', async () => {
    const map = makeMap();
    const taps: (MapTap | null)[] = [];
    const layer = new SitesLayer(map, (tap) => taps.push(tap));
    // Every marker costs the whole frame's time: one goes on per frame.
    let clock = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => (clock += 100));
    const markers = () => map.getContainer().querySelectorAll('.leaflet-marker-icon').length;

    const one = { lat: 38.581, lon: -121.491 };
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
      siteFeature(1, one),
      siteFeature(2, { lat: 38.579, lon: -121.489 }),
    ]);
    // Both dots are drawn, and tapped, before any frame; the markers come one a frame.
    expect(arcs).toBe(2);
    clickAt(map, map.latLngToContainerPoint([one.lat, one.lon]));
    expect(taps).toEqual([{ kind: 'site', site: site(1, one) }]);
    expect(markers()).toBe(1);
    await nextFrame();
    expect(markers()).toBe(2);
    expect(layer.size).toBe(4);
    layer.remove();
  });

  it('redraws only the tiles whose dots changed', () => {
    const map = makeMap();
    const layer = new SitesLayer(map, () => undefined);
    // Two sites a few hundred pixels apart at zoom 14: on different tiles.
    const west = siteFeature(1, { lat: 38.58, lon: -121.505 });
    const east = siteFeature(2, { lat: 38.58, lon: -121.475 });
    layer.show([west, east]);
    expect(arcs).toBe(2);
    // The same view again (a short pan): nothing is drawn.
    layer.show([west, east]);
    expect(arcs).toBe(2);
    // The east site sent: its tile alone is drawn again.
    const sent: MapFeature = {
      ...east,
      key: 's2-unsent',
      site: { ...site(2, { lat: 38.58, lon: -121.475 }), state: 'pending' },
    } as MapFeature;
    layer.show([west, sent]);
    expect(arcs).toBe(3);
    layer.remove();
  });

  it('takes a tap on a site and beside every marker, and ignores the click that ends a drag without measuring the page', async () => {
    const map = makeMap();
    const taps: (MapTap | null)[] = [];
    const layer = new SitesLayer(map, (tap) => taps.push(tap));
    layer.show([siteFeature(1)]);
    const at = map.latLngToContainerPoint([CENTRE.lat, CENTRE.lon]);
    const measured = vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect');

    // The click at the end of a drag (Leaflet's drag has moved the map).
    const dragging = map.dragging as unknown as { _draggable: { _moved: boolean } };
    dragging._draggable._moved = true;
    clickAt(map, at);
    expect(taps).toEqual([]);
    expect(measured).not.toHaveBeenCalled();

    // A tap without a drag selects the site; within 23 px of its centre is on it (a glove).
    dragging._draggable._moved = false;
    clickAt(map, at);
    clickAt(map, at.add([16, 16]));
    expect(taps).toEqual([
      { kind: 'site', site: site(1) },
      { kind: 'site', site: site(1) },
    ]);
    // Beside it: null, the preview goes away.
    clickAt(map, at.add([30, 0]));
    expect(taps[2]).toBeNull();
    layer.remove();
  });

  it('names the site under the pointer, as typed, and stops when the pointer leaves it', () => {
    const map = makeMap();
    const layer = new SitesLayer(map, () => undefined);
    const odd = { ...siteFeature(1), site: { ...site(1), name: 'Ditch <north>' } } as MapFeature;
    layer.show([odd]);
    const at = map.latLngToContainerPoint([CENTRE.lat, CENTRE.lon]);
    const move = (p: L.Point) =>
      map
        .getContainer()
        .dispatchEvent(new MouseEvent('mousemove', { bubbles: true, clientX: p.x, clientY: p.y }));
    const tooltip = () => map.getContainer().querySelector('.leaflet-tooltip');

    move(at.add([5, 5]));
    expect(tooltip()?.textContent).toBe('100001 Ditch <north>');
    expect(map.getContainer().style.cursor).toBe('pointer');
    move(at.add([60, 0]));
    expect(tooltip()).toBeNull();
    expect(map.getContainer().style.cursor).toBe('');
    layer.remove();
  });
});
