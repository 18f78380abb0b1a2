/** Geographic helpers for forms: distances, GPS accuracy and typed-coordinate hints. */
import { smallest } from './smallest';

export type LatLon = { lat: number; lon: number };

/** Sacramento: the demo agency's area, where a map opens until a site or a position gives a better centre. */
export const DEFAULT_CENTER: [number, number] = [38.58, -121.49];

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

/**
 * GPS accuracy in three levels shown with a colour: good ≤ 10 m, fair up to `enoughMeters` (the
 * accuracy set as enough to place a site, 50 m unless changed), poor beyond.
 */
export function accuracyLevel(meters: number, enoughMeters = 50): AccuracyLevel {
  if (meters <= Math.min(10, enoughMeters)) return 'good';
  if (meters <= enoughMeters) return 'fair';
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

/** A longitude brought within -180..180 (Leaflet gives a tap on another copy of the world as e.g. -481.49). */
export function wrapLongitude(lon: number): number {
  if (!Number.isFinite(lon) || (lon >= -180 && lon <= 180)) return lon;
  return ((((lon + 180) % 360) + 360) % 360) - 180;
}

/** Initial great-circle bearing from `from` to `to`, in degrees clockwise from north (0–360). */
export function bearingDegrees(from: LatLon, to: LatLon): number {
  const rad = Math.PI / 180;
  const φ1 = from.lat * rad;
  const φ2 = to.lat * rad;
  const Δλ = (to.lon - from.lon) * rad;
  const y = Math.sin(Δλ) * Math.cos(φ2);
  const x = Math.cos(φ1) * Math.sin(φ2) - Math.sin(φ1) * Math.cos(φ2) * Math.cos(Δλ);
  return (((Math.atan2(y, x) / rad) % 360) + 360) % 360;
}

const COMPASS = ['N', 'NE', 'E', 'SE', 'S', 'SW', 'W', 'NW'] as const;

/** The nearest of the eight compass points to a bearing in degrees ("NE" for 30°–60°…). */
export function compassPoint(degrees: number): (typeof COMPASS)[number] {
  return COMPASS[Math.round((((degrees % 360) + 360) % 360) / 45) % 8];
}

/** A distance as a technician reads it: "420 m" below a kilometre, else "1.2 km". */
export function formatDistance(meters: number): string {
  return meters < 1000 ? `${Math.round(meters)} m` : `${(meters / 1000).toFixed(1)} km`;
}

export type Nearby<T> = { item: T; meters: number; bearing: number };

/**
 * The `count` items closest to `here`, nearest first (equally near: in input order), with their
 * distance and the bearing from `here` to them. One pass keeping a sorted shortlist (smallest):
 * for a few nearest of tens of thousands.
 */
export function nearestTo<T extends LatLon>(
  items: Iterable<T>,
  here: LatLon,
  count: number,
): Nearby<T>[] {
  function* measured() {
    for (const item of items) yield { item, meters: distanceMeters(here, item) };
  }
  return smallest(measured(), count, (a, b) => a.meters - b.meters).map(({ item, meters }) => ({
    item,
    meters,
    bearing: bearingDegrees(here, item),
  }));
}

/**
 * A coordinate as typed, made readable: a comma is a decimal separator (no coordinate has
 * thousands: "38,58" is 38.58, as keypads of many locales offer it) and a trailing hemisphere
 * letter is a sign ("121.49 W" is -121.49, "38.58 N" is 38.58), for keypads without a minus key.
 * Anything else is left as typed (the form says what is wrong with it).
 */
export function normaliseTypedCoordinate(text: string, axis: 'latitude' | 'longitude'): string {
  const pointed = text.replace(/,/g, '.');
  const hemisphere = /^\s*\+?\s*(\d+(?:\.\d*)?|\.\d+)\s*([NSEWnsew])\s*$/.exec(pointed);
  if (!hemisphere) return pointed;
  const letter = hemisphere[2].toUpperCase();
  const fits = axis === 'latitude' ? 'NS'.includes(letter) : 'EW'.includes(letter);
  if (!fits) return pointed;
  return letter === 'S' || letter === 'W' ? `-${hemisphere[1]}` : hemisphere[1];
}

/** A typed coordinate with its sign changed ("121.49" ⇄ "-121.49"; "" → "-" to type after). */
export function flipTypedSign(text: string): string {
  const t = text.trim();
  if (t.startsWith('-')) return t.slice(1).trimStart();
  if (t.startsWith('+')) return `-${t.slice(1).trimStart()}`;
  return `-${t}`;
}

/** How far a place may be from the nearest of the agency's other sites before it is questioned. */
export const FAR_FROM_SITES_M = 500_000;

/**
 * Why a typed place should be confirmed before it is saved, in words ending in a question, or
 * null: 0, 0 (coordinates never filled in), or more than FAR_FROM_SITES_M from every one of
 * `others` (a dropped minus puts a California site in China). Nothing when there are no others.
 */
export function placeQuestion(place: LatLon, others: Iterable<LatLon>): string | null {
  if (place.lat === 0 && place.lon === 0)
    return 'This place, 0, 0, is in the ocean off West Africa: usually coordinates that were never filled in. Save it there?';
  let nearest = Infinity;
  for (const other of others) {
    const meters = distanceMeters(place, other);
    if (meters < nearest) nearest = meters;
    if (nearest <= FAR_FROM_SITES_M) return null;
  }
  if (!Number.isFinite(nearest)) return null;
  const km = nearest / 1000;
  const rounded = km >= 1000 ? Math.round(km / 100) * 100 : Math.round(km / 10) * 10;
  return `This place is ${rounded.toLocaleString('en-US')} km from your other sites. Save it there?`;
}

/** Half a fingertip's target (px): how far from the meant point a tap on a map may land. */
const TAP_SLOP_PX = 22;

/**
 * How far (m) a place tapped on a map at `zoom` may be from the place meant: the ground under
 * TAP_SLOP_PX at that latitude (Web Mercator, 256 px tiles). 82 m at zoom 15 in Sacramento, 2.6
 * km at zoom 10: a tap on the whole district is no finer than a town.
 */
export function mapTapMeters(lat: number, zoom: number): number {
  const metersPerPx =
    (2 * Math.PI * 6_378_137 * Math.cos((lat * Math.PI) / 180)) / (256 * 2 ** zoom);
  return TAP_SLOP_PX * metersPerPx;
}

/**
 * The coordinate precision of a place set on a map where it may be `meters` off
 * (precisionForAccuracy), or, from a lookup without sizes (an upstream that sends none), the
 * one named for maps ("Map or aerial photo"); null when neither is there.
 */
export function precisionForMapPlace<
  T extends { id: number; name: string; meters?: number | null },
>(meters: number, precisions: readonly T[]): T | null {
  return (
    precisionForAccuracy(meters, precisions) ??
    precisions.find((p) => /\bmap\b/i.test(p.name)) ??
    null
  );
}
