import { describe, expect, it } from 'vitest';
import { SiteIndexCore, type SiteRecordLike } from '../../../src/client/lib/site-index-core';

/** A synced site at [lon, lat]. */
const at = (localId: string, code: string, name: string, lon: number, lat: number) =>
  ({
    localId,
    code,
    name,
    syncState: 'synced',
    data: { shape: { type: 'Point', coordinates: [lon, lat] } },
  }) satisfies SiteRecordLike;

/** Two trap sites on one post (same spot, look-alike names), a third 300 m away. */
const ROWS = [
  at('l-b', '104234', 'Putah Creek N trap B', -121.7405, 38.5201),
  at('l-a', '104233', 'Putah Creek N trap A', -121.7405, 38.5201),
  at('l-c', '104235', 'Putah Creek N', -121.7372, 38.5212),
];
const AROUND: [number, number, number, number] = [-121.75, 38.51, -121.73, 38.53];

describe('site index: sites at identical coordinates', () => {
  it('gives the sites at one spot as one group listing them all, in code order, at every zoom', () => {
    const index = new SiteIndexCore();
    index.load(ROWS);
    for (const zoom of [16, 17, 18]) {
      const features = index.view(AROUND, zoom);
      expect(features).toHaveLength(2);
      const stack = features.find((f) => f.kind === 'group');
      expect(stack?.kind === 'group' && stack.sites.map((s) => s.code)).toEqual([
        '104233',
        '104234',
      ]);
      // No zoom draws them apart: they are listed to choose from.
      expect(stack?.kind === 'group' && stack.zoomTo).toBeNull();
      const alone = features.find((f) => f.kind === 'site');
      expect(alone?.kind === 'site' && alone.site.code).toBe('104235');
    }
    // Zoomed out, the third one, 300 m away, is under the same finger: one group of three.
    const far = index.view(AROUND, 12);
    expect(far).toHaveLength(1);
    expect(far[0].kind === 'group' && far[0].sites.map((s) => s.code)).toEqual([
      '104233',
      '104234',
      '104235',
    ]);
  });

  it('keeps the stack’s key while nothing in it changes, and changes it when one site does', () => {
    const index = new SiteIndexCore();
    index.load(ROWS);
    const keyOf = () => index.view(AROUND, 17).find((f) => f.kind === 'group')?.key;
    const before = keyOf();
    index.load(ROWS.map((r) => ({ ...r })));
    expect(keyOf()).toBe(before);
    index.load(ROWS.map((r) => (r.localId === 'l-b' ? { ...r, syncState: 'queued' } : r)));
    expect(keyOf()).not.toBe(before);
  });
});

describe('site index: a big stack of sites at one spot', () => {
  // An import whose sites had no coordinates of their own, all placed at the district office:
  // more sites at one spot than the index takes apart zoom by zoom.
  const office = Array.from({ length: 450 }, (_, i) =>
    at(`l-${i}`, String(200_000 + i), `Imported site ${i}`, -121.4944, 38.5816),
  );
  const OFFICE: [number, number, number, number] = [-121.5, 38.57, -121.48, 38.59];

  it('lists the stack at the closest zoom instead of offering a zoom that never takes it apart', () => {
    const index = new SiteIndexCore();
    index.load(office);
    for (const zoom of [17, 18]) {
      const features = index.view(OFFICE, zoom);
      expect(features).toHaveLength(1);
      const [stack] = features;
      expect(stack.kind).toBe('group');
      if (stack.kind !== 'group') continue;
      expect(stack.sites).toHaveLength(450);
      // A tap on it lists every one of them: no zoom draws them apart.
      expect(stack.zoomTo, `zoom ${zoom}`).toBeNull();
    }
  });
});
