import { describe, expect, it } from 'vitest';
import { SiteIndexCore, type SiteRecordLike } from '../../../src/client/lib/site-index-core';
import type { MapFeature } from '../../../src/client/lib/site-map-features';

/** A synced site at [lon, lat]. */
const at = (localId: string, code: string, lon: number, lat: number): SiteRecordLike => ({
  localId,
  code,
  name: `Site ${code}`,
  syncState: 'synced',
  data: { shape: { type: 'Point', coordinates: [lon, lat] } },
});

/** `meters` east of [lon, lat] at Sacramento's latitude (flat offset, small distances). */
const east = (lon: number, meters: number) =>
  lon + meters / (111_320 * Math.cos(38.55 * (Math.PI / 180)));

/**
 * A district as the demo agency has it: 36 sites spread over Sacramento and Yolo (golden-ratio
 * spread), plus traps a technician hangs close together: two 40 m apart on one creek, three
 * along 300 m of a wetland, and two on one post (the same coordinates).
 */
function district(): SiteRecordLike[] {
  const spread = Array.from({ length: 36 }, (_, i) =>
    at(
      `spread-${i + 1}`,
      String(200_001 + i),
      -122.0 + 1.0 * (((i + 1) * 0.618034) % 1),
      38.3 + 0.7 * (((i + 1) * 0.754878) % 1),
    ),
  );
  return [
    ...spread,
    at('creek-a', '300001', -121.74, 38.52),
    at('creek-b', '300002', east(-121.74, 40), 38.52),
    at('wet-a', '300011', -121.6, 38.7),
    at('wet-b', '300012', east(-121.6, 150), 38.7),
    at('wet-c', '300013', east(-121.6, 300), 38.7),
    at('post-a', '300021', -121.35, 38.45),
    at('post-b', '300022', -121.35, 38.45),
  ];
}

/** The deepest zoom the map offers (Leaflet's tile layer default). */
const MAP_MAX_ZOOM = 18;
/** A site's tap target is 44 px across: markers closer than that take each other's taps. */
const TARGET_PX = 44;

const WORLD: [number, number, number, number] = [-180, -85, 180, 85];

/** Where a feature is drawn, in screen pixels of the world at `zoom` (Web Mercator, 256 px tiles). */
function pixel(f: { lat: number; lon: number }, zoom: number): { x: number; y: number } {
  const size = 256 * 2 ** zoom;
  const sin = Math.sin((f.lat * Math.PI) / 180);
  return {
    x: ((f.lon + 180) / 360) * size,
    y: (0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)) * size,
  };
}

/** The two drawn features closest together on screen, and how far apart (px). */
function closestPair(features: MapFeature[], zoom: number): number {
  let closest = Infinity;
  const at = features.map((f) => pixel(f, zoom));
  for (let i = 0; i < at.length; i += 1)
    for (let j = i + 1; j < at.length; j += 1)
      closest = Math.min(closest, Math.hypot(at[i].x - at[j].x, at[i].y - at[j].y));
  return closest;
}

const sitesOf = (f: MapFeature): string[] =>
  f.kind === 'site' ? [f.site.id] : f.kind === 'group' ? f.sites.map((s) => s.id) : [];
const countOf = (f: MapFeature) => (f.kind === 'cluster' ? f.count : sitesOf(f).length);

describe('site index: sites whose markers would overlap are grouped at every zoom', () => {
  const index = new SiteIndexCore();
  const rows = district();
  index.load(rows);

  it('draws no two markers on top of each other, from the whole district to the closest zoom', () => {
    for (let zoom = 8; zoom <= MAP_MAX_ZOOM; zoom += 1) {
      const features = index.view(WORLD, zoom);
      expect(closestPair(features, zoom), `zoom ${zoom}`).toBeGreaterThanOrEqual(TARGET_PX);
      // Every site is drawn, alone or in a group, exactly once.
      expect(
        features.reduce((n, f) => n + countOf(f), 0),
        `zoom ${zoom}`,
      ).toBe(rows.length);
    }
  });

  it('groups the neighbouring demo-like sites at the zooms a technician opens the map at', () => {
    for (const zoom of [9, 10, 11]) {
      const features = index.view(WORLD, zoom);
      expect(
        features.some((f) => f.kind === 'group'),
        `zoom ${zoom}`,
      ).toBe(true);
      expect(features.length, `zoom ${zoom}`).toBeLessThan(rows.length);
    }
  });

  it('says at which zoom a group comes apart, and that the zoom draws its sites apart', () => {
    const creek = (zoom: number) =>
      index.view(WORLD, zoom).find((f) => sitesOf(f).includes('creek-a'))!;
    const group = creek(14);
    expect(group.kind).toBe('group');
    if (group.kind !== 'group') return;
    expect(group.sites.map((s) => s.code)).toEqual(['300001', '300002']);
    expect(group.zoomTo).not.toBeNull();
    expect(group.zoomTo!).toBeGreaterThan(14);
    expect(group.zoomTo!).toBeLessThanOrEqual(MAP_MAX_ZOOM);
    // At that zoom the two are drawn each on its own; one zoom less, still together.
    expect(creek(group.zoomTo!).kind).toBe('site');
    expect(creek(group.zoomTo! - 1).kind).toBe('group');
  });

  it('keeps sites on one post a group at every zoom, one that never comes apart', () => {
    for (let zoom = 8; zoom <= MAP_MAX_ZOOM; zoom += 1) {
      const post = index.view(WORLD, zoom).find((f) => sitesOf(f).includes('post-a'))!;
      expect(post.kind, `zoom ${zoom}`).toBe('group');
      if (post.kind !== 'group') continue;
      expect(sitesOf(post)).toContain('post-b');
      if (zoom >= 15) {
        expect(post.sites).toHaveLength(2);
        expect(post.zoomTo).toBeNull();
      }
    }
  });

  it('draws each site alone where none overlap', () => {
    const features = index.view(WORLD, MAP_MAX_ZOOM);
    const alone = features.filter((f) => f.kind === 'site');
    // All but the two on one post.
    expect(alone).toHaveLength(rows.length - 2);
  });

  it('keeps a group’s key while nothing in it changes, and changes it when one of its sites does', () => {
    const keyOf = () => index.view(WORLD, 14).find((f) => sitesOf(f).includes('creek-a'))!.key;
    const before = keyOf();
    index.load(rows.map((r) => ({ ...r })));
    expect(keyOf()).toBe(before);
    index.load(rows.map((r) => (r.localId === 'creek-b' ? { ...r, syncState: 'queued' } : r)));
    expect(keyOf()).not.toBe(before);
  });
});
