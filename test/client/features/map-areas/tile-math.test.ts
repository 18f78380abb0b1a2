import { describe, expect, it } from 'vitest';
import {
  checkTiles,
  MAX_AREA_TILES,
  parseRectangle,
} from '../../../../src/client/features/map-areas/area-choice';
import { viewIsSaved } from '../../../../src/client/features/map-areas/area-coverage';
import { areaTileUrls, tilesOnlyIn } from '../../../../src/client/features/map-areas/area-tiles';
import { formatBytes } from '../../../../src/client/features/map-areas/format-bytes';
import type { SavedArea } from '../../../../src/client/features/map-areas/saved-areas';
import {
  countTiles,
  estimateBytes,
  tileRange,
  tilesOf,
  tileX,
  tileY,
} from '../../../../src/client/features/map-areas/tile-math';
import { tileUrl } from '../../../../src/client/features/map-areas/tile-url';

// Sacramento and Davis, the demo district.
const district = { west: -121.9, south: 38.4, east: -121.3, north: 38.75 };
const TEMPLATE = 'https://tiles.example.org/{z}/{x}/{y}.png';

function area(over: Partial<SavedArea>): SavedArea {
  return {
    id: 'a',
    name: 'A',
    bbox: district,
    minZoom: 10,
    maxZoom: 12,
    tileUrl: TEMPLATE,
    retina: false,
    tiles: 0,
    bytes: 0,
    savedAt: '2026-11-23T10:00:00Z',
    complete: true,
    ...over,
  };
}

describe('tile arithmetic', () => {
  it('finds the OpenStreetMap tile of a place (Sacramento at zoom 10 is 166/392)', () => {
    expect(tileX(-121.49, 10)).toBe(166);
    expect(tileY(38.58, 10)).toBe(392);
    // The world is one tile at zoom 0 and 2×2 at zoom 1; the poles clamp to the last row.
    expect(countTiles({ west: -180, south: -90, east: 180, north: 90 }, 0, 1)).toBe(1 + 4);
    expect(tileY(89.9, 3)).toBe(0);
    expect(tileY(-89.9, 3)).toBe(7);
    expect(tileX(180, 3)).toBe(7);
  });

  it('counts the tiles of a box over a zoom range, each zoom by its column × row span', () => {
    // Zoom 12: columns 661..667 (7) × rows 1569..1574 (6) = 42.
    expect(tileRange(district, 12)).toEqual({
      z: 12,
      minX: 661,
      maxX: 667,
      minY: 1569,
      maxY: 1574,
    });
    expect(countTiles(district, 12, 12)).toBe(42);
    const byZoom = [10, 11, 12].map((z) => countTiles(district, z, z));
    expect(countTiles(district, 10, 12)).toBe(byZoom[0] + byZoom[1] + byZoom[2]);
    // tilesOf lists exactly the counted tiles, none twice.
    const listed = [...tilesOf(district, 10, 12)].map((t) => `${t.z}/${t.x}/${t.y}`);
    expect(listed).toHaveLength(countTiles(district, 10, 12));
    expect(new Set(listed).size).toBe(listed.length);
    // Each zoom level deeper roughly quadruples a large area's tiles.
    expect(countTiles(district, 15, 15)).toBeGreaterThan(countTiles(district, 14, 14) * 3);
  });

  it('estimates the size as the mean sample tile size times the count', () => {
    expect(estimateBytes([10_000, 20_000, 30_000], 1_000)).toBe(20_000_000);
    expect(estimateBytes([], 1_000)).toBe(0);
    expect(formatBytes(20_000_000)).toBe('20.0 MB');
    expect(formatBytes(840_000)).toBe('840 kB');
    expect(formatBytes(1_250_000_000)).toBe('1.25 GB');
  });

  it("names tiles as Leaflet asks for them: subdomain by (x + y) mod 3, '@2x', TMS rows", () => {
    const t = { z: 3, x: 2, y: 1 };
    expect(tileUrl('https://{s}.tile.example.org/{z}/{x}/{y}{r}.png', t, false)).toBe(
      'https://a.tile.example.org/3/2/1.png',
    );
    expect(tileUrl('https://{s}.tile.example.org/{z}/{x}/{y}{r}.png', { ...t, y: 2 }, true)).toBe(
      'https://b.tile.example.org/3/2/2@2x.png',
    );
    expect(tileUrl('https://tms.example.org/{z}/{x}/{-y}.png', t)).toBe(
      'https://tms.example.org/3/2/6.png',
    );
  });
});

describe('choosing an area', () => {
  it('checks a typed rectangle edge by edge and keeps every message', () => {
    expect(
      parseRectangle({ north: '38.75', south: '38.4', west: '-121.9', east: '-121.3' }),
    ).toEqual({ bbox: district, errors: {} });
    const bad = parseRectangle({ north: '38', south: '39', west: 'abc', east: '200' });
    expect(bad.bbox).toBeNull();
    expect(bad.errors).toEqual({
      south: 'The south edge must be below the north edge',
      west: 'Enter the west edge in decimal degrees',
      east: 'The east edge must be between -180 and 180',
    });
  });

  it('refuses a zoom range upside down and an area over the tile limit', () => {
    expect(checkTiles(district, 12, 10).errors.zoom).toMatch(/must not be above/);
    const big = checkTiles(district, 10, 19);
    expect(big.tiles).toBeGreaterThan(MAX_AREA_TILES);
    expect(big.errors.tiles).toMatch(/^That is [\d,]+ tiles; one area holds at most 30,000/);
    expect(checkTiles(district, 10, 14)).toEqual({
      tiles: countTiles(district, 10, 14),
      errors: {},
    });
  });
});

describe('saved areas', () => {
  it('frees on deletion only the tiles no other area of the same source covers', () => {
    const west = area({ id: 'w', bbox: { ...district, east: -121.6 } });
    const all = areaTileUrls(area({}));
    const onlyWhole = tilesOnlyIn(area({}), [west]);
    expect(onlyWhole.length).toBeGreaterThan(0);
    expect(onlyWhole.length).toBeLessThan(all.length);
    // What stays is exactly the west area's tiles.
    const kept = new Set(all.filter((u) => !onlyWhole.includes(u)));
    expect(kept).toEqual(new Set(areaTileUrls(west)));
    // Another source's area shares no tile.
    expect(
      tilesOnlyIn(area({}), [area({ id: 'o', tileUrl: 'https://other/{z}/{x}/{y}.png' })]),
    ).toEqual(all);
  });

  it('knows whether the map view is inside a saved area at its zoom', () => {
    const saved = [area({})];
    const view = { west: -121.6, south: 38.5, east: -121.4, north: 38.6 };
    expect(viewIsSaved(saved, view, 11, TEMPLATE)).toBe(true);
    expect(viewIsSaved(saved, view, 13, TEMPLATE)).toBe(false);
    expect(viewIsSaved(saved, { ...view, east: -121.0 }, 11, TEMPLATE)).toBe(false);
    expect(viewIsSaved(saved, view, 11, 'https://other/{z}/{x}/{y}.png')).toBe(false);
  });
});
