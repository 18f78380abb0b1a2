import { describe, expect, it } from 'vitest';
import { mapTapMeters, precisionForMapPlace } from '../../../src/client/lib/geo';

/** The records service's coordinate precisions (seed lookup-data.ts). */
const PRECISIONS = [
  { id: 1, name: 'GPS (< 10 m)', meters: 10 },
  { id: 2, name: 'Map or aerial photo (< 100 m)', meters: 100 },
  { id: 3, name: 'Street address (< 250 m)', meters: 250 },
  { id: 4, name: 'Nearest intersection (< 500 m)', meters: 500 },
  { id: 5, name: 'City or town centroid', meters: 5000 },
  { id: 6, name: 'County centroid', meters: 50000 },
];

describe('the precision of a place tapped on a map', () => {
  it('is the ground under half a fingertip at the zoom tapped: coarser zoomed out', () => {
    expect(mapTapMeters(38.58, 15)).toBeGreaterThan(75);
    expect(mapTapMeters(38.58, 15)).toBeLessThan(90);
    expect(mapTapMeters(38.58, 16)).toBeCloseTo(mapTapMeters(38.58, 15) / 2, 6);
    // Further north a map pixel covers less ground.
    expect(mapTapMeters(60, 15)).toBeLessThan(mapTapMeters(38.58, 15));
  });

  it('names the lookup a technician would pick at each zoom', () => {
    const at = (zoom: number) => precisionForMapPlace(mapTapMeters(38.58, zoom), PRECISIONS)?.name;
    expect(at(15)).toBe('Map or aerial photo (< 100 m)');
    // Even at the closest zoom a tap is not a GPS fix.
    expect(at(18)).toBe('Map or aerial photo (< 100 m)');
    expect(at(13)).toBe('Nearest intersection (< 500 m)');
    expect(at(10)).toBe('City or town centroid');
  });

  it('falls back to the one named for maps when the upstream sends no sizes', () => {
    const unsized = PRECISIONS.map(({ id, name }) => ({ id, name }));
    expect(precisionForMapPlace(80, unsized)?.id).toBe(2);
    expect(precisionForMapPlace(80, [{ id: 9, name: 'Surveyed' }])).toBeNull();
  });
});
