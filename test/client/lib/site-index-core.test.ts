import { describe, expect, it } from 'vitest';
import {
  CLUSTER_MAX_ZOOM,
  DRAW_EACH_UP_TO,
  SiteIndexCore,
  type SiteRecordLike,
} from '../../../src/client/lib/site-index-core';
import type { MapFeature } from '../../../src/client/lib/site-map-features';

/** `count` synced sites spread over the Sacramento–Yolo district, codes 100001 up. */
function makeSites(count: number): SiteRecordLike[] {
  return Array.from({ length: count }, (_, i) => {
    const g = i + 1;
    return {
      localId: `site-${g}`,
      code: String(100_000 + g),
      name: `Scale site ${g}`,
      syncState: 'synced',
      data: {
        shape: {
          type: 'Point',
          coordinates: [-122.1 + 1.2 * ((g * 0.618034) % 1), 38.2 + 0.9 * ((g * 0.754878) % 1)],
        },
      },
    };
  });
}

const DISTRICT: [number, number, number, number] = [-122.2, 38.1, -120.8, 39.2];
const sitesIn = (features: MapFeature[]) =>
  features.reduce(
    (sum, f) => sum + (f.kind === 'cluster' ? f.count : f.kind === 'group' ? f.sites.length : 1),
    0,
  );

describe('site index: clusters, search and nearest over 20,000 sites', () => {
  const index = new SiteIndexCore();
  const rows = makeSites(20_000);
  index.load(rows);

  it('shows the whole district as clusters accounting for every site', () => {
    const features = index.view(DISTRICT, 9);
    expect(features.length).toBeGreaterThan(1);
    expect(features.length).toBeLessThan(200);
    expect(features.some((f) => f.kind === 'cluster')).toBe(true);
    expect(sitesIn(features)).toBe(20_000);
    // Tapping a cluster zooms in at least one level, and never past where every site is drawn.
    for (const f of features)
      if (f.kind === 'cluster') {
        expect(f.zoomTo).toBeGreaterThan(9);
        expect(f.zoomTo).toBeLessThanOrEqual(CLUSTER_MAX_ZOOM + 1);
      }
  });

  it('never summarises few sites in view as clusters: each is drawn alone or in its group', () => {
    const small = new SiteIndexCore();
    small.load(makeSites(40));
    expect(DRAW_EACH_UP_TO).toBeGreaterThanOrEqual(40);
    for (const zoom of [8, 10, 12]) {
      const features = small.view(DISTRICT, zoom);
      expect(features.some((f) => f.kind === 'cluster')).toBe(false);
      expect(sitesIn(features)).toBe(40);
    }
    // Zoomed in on the district, none of the 40 overlaps another: each is drawn on its own.
    const near = small.view(DISTRICT, 12);
    expect(near).toHaveLength(40);
    expect(near.every((f) => f.kind === 'site')).toBe(true);
  });

  it('keeps the keys of what did not change and reports the one site that did', () => {
    const before = index.view(DISTRICT, 9);
    const version = index.version;
    expect(index.load(rows)).toEqual([]);
    expect(index.version).toBe(version);
    const moved = rows.map((r) =>
      r.localId === 'site-7' ? { ...r, syncState: 'queued', name: 'Renamed pond' } : r,
    );
    expect(index.load(moved)).toEqual(['site-7']);
    expect(index.version).toBe(version + 1);
    const after = index.view(DISTRICT, 9);
    const unchanged = after.filter((f) => before.some((b) => b.key === f.key));
    // Only the cluster holding site-7 may differ... and it does not (same place, same count).
    expect(unchanged.length).toBe(after.length);
    // Where site-7 is drawn alone, its key changes with its state.
    const site7 = moved.find((r) => r.localId === 'site-7')!;
    const [lon, lat] = (site7.data!.shape as { coordinates: [number, number] }).coordinates;
    const near: [number, number, number, number] = [
      lon - 0.001,
      lat - 0.001,
      lon + 0.001,
      lat + 0.001,
    ];
    const alone = index.view(near, 17).find((f) => f.kind === 'site' && f.site.id === 'site-7');
    expect(alone?.kind === 'site' && alone.site.state).toBe('queued');
    expect(alone?.key).toContain('queued');
  });

  it('leaves out deleted sites and counts sites without a position in the list only', () => {
    const other = new SiteIndexCore();
    const some = makeSites(3);
    other.load([
      ...some,
      { ...some[0], localId: 'gone', code: '999998', deleted: true },
      { localId: 'nowhere', code: '999999', name: 'No position', syncState: 'queued', data: {} },
    ]);
    expect(other.search('', 10).total).toBe(4);
    expect(sitesIn(other.view(DISTRICT, 10))).toBe(3);
    expect(other.summary().count).toBe(4);
  });

  it('finds sites by part of the code or name, any case, first ones in code order', () => {
    const byName = index.search('SITE 1999', 50);
    expect(byName.total).toBe(20_000);
    // 1999 and 19990–19999.
    expect(byName.matched).toBe(11);
    expect(byName.shown.map((s) => s.code)[0]).toBe('101999');
    const many = index.search('site', 50);
    expect(many.matched).toBe(19_999);
    expect(many.shown).toHaveLength(50);
    expect(many.shown.map((s) => s.code)).toEqual([...many.shown.map((s) => s.code)].sort());
    expect(index.search('120000', 50).shown.map((s) => s.name)).toEqual(['Scale site 20000']);
    expect(index.search('no such site', 50).matched).toBe(0);
  });

  it('names the nearest sites to a position, nearest first', () => {
    const here = { lat: 38.6, lon: -121.5 };
    const found = index.nearest(here, 5);
    expect(found).toHaveLength(5);
    for (let i = 1; i < found.length; i += 1)
      expect(found[i].meters).toBeGreaterThanOrEqual(found[i - 1].meters);
    expect(found[0].meters).toBeLessThan(1_000);
  });
});
