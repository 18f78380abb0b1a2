import { describe, expect, it } from 'vitest';
import {
  bearingDegrees,
  compassPoint,
  distanceMeters,
  formatDistance,
  nearestTo,
} from '../../../../src/client/lib/geo';

// Sacramento's State Capitol, and points a known way from it.
const CAPITOL = { lat: 38.5767, lon: -121.4934 };
/** A point `meters` north and `metersEast` east of `from` (small distances, flat-earth offset). */
function offset(from: { lat: number; lon: number }, metersNorth: number, metersEast: number) {
  const perDegLat = 111_195;
  const perDegLon = perDegLat * Math.cos((from.lat * Math.PI) / 180);
  return { lat: from.lat + metersNorth / perDegLat, lon: from.lon + metersEast / perDegLon };
}

describe('where am I: distance, direction and nearest sites', () => {
  it('measures the distance between two places as on the ground', () => {
    // Sacramento to San Francisco City Hall: about 120 km as the crow flies.
    const sf = { lat: 37.7793, lon: -122.4193 };
    expect(distanceMeters(CAPITOL, sf) / 1000).toBeCloseTo(120, 0);
    expect(distanceMeters(CAPITOL, offset(CAPITOL, 420, 0))).toBeCloseTo(420, -1);
  });

  it('names the direction of a site as one of eight compass points', () => {
    const cases: [number, number, string][] = [
      [500, 0, 'N'],
      [300, 300, 'NE'],
      [0, 500, 'E'],
      [-300, 300, 'SE'],
      [-500, 0, 'S'],
      [-300, -300, 'SW'],
      [0, -500, 'W'],
      [300, -300, 'NW'],
    ];
    for (const [north, east, point] of cases)
      expect(compassPoint(bearingDegrees(CAPITOL, offset(CAPITOL, north, east))), point).toBe(
        point,
      );
    expect(bearingDegrees(CAPITOL, offset(CAPITOL, 0, 500))).toBeCloseTo(90, 0);
    expect(compassPoint(359)).toBe('N');
    expect(compassPoint(-10)).toBe('N');
    expect(compassPoint(22)).toBe('N');
    expect(compassPoint(23)).toBe('NE');
  });

  it('writes distances in metres below a kilometre and in kilometres beyond', () => {
    expect(formatDistance(419.6)).toBe('420 m');
    expect(formatDistance(1234)).toBe('1.2 km');
    // "420 m NE", as the nearest list shows a site.
    const site = offset(CAPITOL, 297, 297);
    expect(
      `${formatDistance(distanceMeters(CAPITOL, site))} ${compassPoint(bearingDegrees(CAPITOL, site))}`,
    ).toBe('420 m NE');
  });

  it('lists the nearest sites first, with distance and bearing, out of thousands', () => {
    const sites = Array.from({ length: 5_000 }, (_, i) => ({
      id: `far-${i}`,
      ...offset(CAPITOL, 2_000 + (i % 100) * 50, 2_000 + Math.floor(i / 100) * 50),
    }));
    sites.splice(1234, 0, { id: 'west-300', ...offset(CAPITOL, 0, -300) });
    sites.splice(42, 0, { id: 'north-100', ...offset(CAPITOL, 100, 0) });
    sites.push({ id: 'south-700', ...offset(CAPITOL, -700, 0) });
    const found = nearestTo(sites, CAPITOL, 3);
    expect(found.map((n) => n.item.id)).toEqual(['north-100', 'west-300', 'south-700']);
    expect(found.map((n) => Math.round(n.meters))).toEqual([100, 300, 700]);
    expect(found.map((n) => compassPoint(n.bearing))).toEqual(['N', 'W', 'S']);
    // Brute force agrees on the order of the ten nearest.
    const ten = nearestTo(sites, CAPITOL, 10).map((n) => n.item.id);
    const sorted = [...sites]
      .sort((a, b) => distanceMeters(CAPITOL, a) - distanceMeters(CAPITOL, b))
      .slice(0, 10)
      .map((s) => s.id);
    expect(ten).toEqual(sorted);
    expect(nearestTo(sites.slice(0, 2), CAPITOL, 5)).toHaveLength(2);
    expect(nearestTo([], CAPITOL, 5)).toEqual([]);
  });
});
