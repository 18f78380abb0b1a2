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

/** Text written on the canvas (fillText), since the test began or last emptied it. */
let drawnText: string[] = [];

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
  // jsdom draws no canvas: a 2D context that accepts every call and draws nothing, and notes
  // the text written on it.
  drawnText = [];
  const context = new Proxy({} as Record<string | symbol, unknown>, {
    get: (target, name) =>
      name in target
        ? target[name]
        : name === 'fillText'
          ? (text: string) => drawnText.push(text)
          : () => undefined,
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
  it('draws a view’s circles, then its discs with their counts on the canvas, then their targets', async () => {
    const map = makeMap();
    const layer = new SitesLayer(map, () => undefined);
    // Every part costs the whole frame's time: one goes on per frame.
    let clock = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => (clock += 100));
    const targets = () => map.getContainer().querySelectorAll('.disc-targets [title]').length;

    layer.show([
      { kind: 'cluster', key: 'c1', lat: 38.59, lon: -121.5, count: 1204, zoomTo: 16 },
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
    // Two circles, then two discs: four frames that change the canvas only.
    for (let frame = 0; frame < 3; frame += 1) await nextFrame();
    expect(layer.size).toBe(4);
    expect(targets()).toBe(0);
    // The canvas redraws in a frame of its own (Leaflet's): both counts are drawn on it.
    await vi.waitFor(() => expect([...drawnText].sort()).toEqual(['1.2k', '2']));
    await nextFrame();
    await nextFrame();
    expect(targets()).toBe(2);
    // The targets paint nothing: no count in the page's text.
    expect(map.getContainer().textContent).not.toContain('1.2k');
    layer.remove();
  });

  it('zooms in on a tap on a cluster’s target, and lists a small group’s sites on a tap on its', async () => {
    const map = makeMap();
    const taps: MapTap[] = [];
    const layer = new SitesLayer(map, (tap) => taps.push(tap));
    layer.show([
      { kind: 'cluster', key: 'c1', lat: 38.59, lon: -121.5, count: 120, zoomTo: 16 },
      { kind: 'group', key: 'g1', lat: 38.57, lon: -121.48, sites: [site(7), site(8)], zoomTo: 17 },
    ]);
    for (let frame = 0; frame < 4; frame += 1) await nextFrame();
    const target = (name: string) =>
      map.getContainer().querySelector<HTMLElement>(`[title="${name}"]`)!;
    const cluster = target('120 sites here: zoom in');
    const group = target('2 sites here: choose one');
    // Reachable by keyboard, as buttons.
    for (const element of [cluster, group]) {
      expect(element.getAttribute('role')).toBe('button');
      expect(element.tabIndex).toBe(0);
    }
    group.click();
    expect(taps).toEqual([
      { kind: 'group', sites: [site(7), site(8)], lat: 38.57, lon: -121.48, zoomTo: 17 },
    ]);
    cluster.click();
    expect(map.getZoom()).toBe(16);
    expect(map.getCenter().lat).toBeCloseTo(38.59, 5);
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
