/** Geographic helpers for forms: distances, GPS accuracy and typed-coordinate hints. */

export type LatLon = { lat: number; lon: number };

const EARTH_RADIUS_M = 6_371_008.8;

/** Great-circle distance in metres. */
export function distanceMeters(a: LatLon, b: LatLon): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLon = (b.lon - a.lon) * rad;
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

export type AccuracyLevel = 'good' | 'fair' | 'poor';

/** GPS accuracy in three levels shown with a colour: good ≤ 10 m, fair ≤ 50 m, poor beyond. */
export function accuracyLevel(meters: number): AccuracyLevel {
  if (meters <= 10) return 'good';
  if (meters <= 50) return 'fair';
  return 'poor';
}

/**
 * The coordinate precision that honestly describes a fix of `accuracy` metres: the finest
 * precision whose `meters` is at least the accuracy, else the coarsest one that has a size.
 */
export function precisionForAccuracy<T extends { id: number; meters?: number | null }>(
  accuracy: number,
  precisions: readonly T[],
): T | null {
  const sized = precisions
    .filter((p): p is T & { meters: number } => typeof p.meters === 'number')
    .sort((a, b) => a.meters - b.meters);
  if (sized.length === 0) return null;
  return sized.find((p) => p.meters >= accuracy) ?? sized[sized.length - 1];
}

/**
 * A hint when typed coordinates look swapped or mis-signed. Not an error: the shared schema
 * decides validity; this names the likely mistake in words.
 */
export function coordinateHint(
  lat: number | null | undefined,
  lon: number | null | undefined,
): string | null {
  if (typeof lat !== 'number' || typeof lon !== 'number' || Number.isNaN(lat) || Number.isNaN(lon))
    return null;
  if (Math.abs(lat) > 90 && Math.abs(lon) <= 90) {
    return `Latitude ${lat} is outside -90 to 90: latitude and longitude look swapped (try latitude ${lon}, longitude ${lat}).`;
  }
  if (lon > 0 && lat >= 32 && lat <= 42.1 && lon >= 114 && lon <= 124.5) {
    return `Longitude ${lon} is east of Greenwich; in California longitudes are negative (did you mean ${-lon}?).`;
  }
  if (lat < 0 && lat <= -32 && lat >= -42.1 && lon <= -114 && lon >= -124.5) {
    return `Latitude ${lat} is in the southern hemisphere; in California latitudes are positive (did you mean ${-lat}?).`;
  }
  return null;
}

/** Rounds a coordinate to 6 decimals (~0.1 m): more digits only pretend to precision. */
export function roundCoord(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}
