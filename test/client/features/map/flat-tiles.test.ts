import L from 'leaflet';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../../../src/client/features/map/flat-tiles';

afterEach(() => {
  vi.restoreAllMocks();
  document.body.replaceChildren();
});

describe('the map’s tile grid', () => {
  it('makes a new zoom level without reading layout (no forced reflow in the zoom’s tasks)', () => {
    const div = document.createElement('div');
    Object.defineProperty(div, 'clientWidth', { value: 800 });
    Object.defineProperty(div, 'clientHeight', { value: 600 });
    document.body.append(div);
    const map = L.map(div, { fadeAnimation: false, zoomAnimation: false }).setView(
      [38.58, -121.49],
      10,
    );
    const layer = L.gridLayer().addTo(map);
    const offsetWidth = vi.spyOn(HTMLElement.prototype, 'offsetWidth', 'get');

    map.setZoom(12, { animate: false });

    expect(offsetWidth).not.toHaveBeenCalled();
    // The new level is there, in front, holding the new zoom's tiles placed flat.
    const levels = [...div.querySelectorAll<HTMLElement>('.leaflet-tile-container')];
    const front = levels.find((level) => level.querySelector('.leaflet-tile'));
    expect(front).toBeDefined();
    expect(front!.querySelectorAll('.leaflet-tile').length).toBeGreaterThan(8);
    expect(front!.querySelector<HTMLElement>('.leaflet-tile')!.style.transform).toBe('');
    layer.remove();
  });
});
