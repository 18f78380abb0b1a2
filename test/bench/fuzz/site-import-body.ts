import { HOSTILE_NAMES, hostileValue } from './hostile-values';
import type { SeededRandom } from './seeded-random';

const HEADER =
  'code,name,latitude,longitude,coordinate_precision,active_date,deactive_date,comments';

/** One CSV cell as a spreadsheet writes it: quoted when it holds a comma, quote or line break. */
const cell = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

/**
 * A file for POST /api/import/sites (contract §12): a few sites as CSV or GeoJSON, mostly good,
 * or, when hostile, damaged the ways real files are (hostile cells, a header missing or
 * misspelt, an unclosed quote, a polygon, broken JSON, a wrong media type or parameter).
 * Codes come from a band of their own, so imports and the fuzz's own sites rarely collide.
 */
export function siteImportRequest(
  rng: SeededRandom,
  hostile: boolean,
): { query: string; contentType: string; body: string } {
  const geo = rng.chance(0.3);
  const n = rng.int(1, 4);
  const sites = Array.from({ length: n }, () => ({
    code: String(rng.int(700_000, 700_400)),
    name: `Import ${rng.int(1, 1e6)}`,
    lat: 38 + rng.int(0, 999) / 1000,
    lon: -121 - rng.int(0, 999) / 1000,
    precision: rng.pick(['1', '2', 'GPS (< 10 m)']),
    active: rng.chance(0.3) ? '2026-03-01' : '',
  }));
  if (hostile) {
    const s = rng.pick(sites);
    rng.weighted<() => void>([
      [3, () => (s.name = String(rng.pick(HOSTILE_NAMES)))],
      [2, () => (s.code = String(hostileValue(rng)))],
      [2, () => (s.lat = Number(hostileValue(rng)))],
      [1, () => (s.precision = String(hostileValue(rng)))],
      [1, () => (s.active = String(hostileValue(rng)))],
    ])();
  }
  let contentType = geo ? 'application/geo+json' : 'text/csv';
  let body = geo
    ? JSON.stringify({
        type: 'FeatureCollection',
        features: sites.map((s) => ({
          type: 'Feature',
          geometry: { type: 'Point', coordinates: [s.lon, s.lat] },
          properties: {
            code: s.code,
            name: s.name,
            coordinate_precision: s.precision,
            ...(s.active ? { active_date: s.active } : {}),
          },
        })),
      })
    : [
        HEADER,
        ...sites.map((s) =>
          [s.code, s.name, String(s.lat), String(s.lon), s.precision, s.active, '', '']
            .map(cell)
            .join(','),
        ),
      ].join(rng.chance(0.5) ? '\r\n' : '\n');
  if (!geo && rng.chance(0.2)) body = `\ufeff${body}`;
  let query = rng.chance(0.5) ? '?dry_run=true' : '';
  if (hostile && rng.chance(0.5)) {
    rng.weighted<() => void>([
      [2, () => (body = body.replace(/^\ufeff?[^\r\n]*[\r\n]+/, ''))],
      [1, () => (body = body.replace('latitude', 'lat'))],
      [1, () => (body = `${body}\n"${rng.pick(HOSTILE_NAMES)}`)],
      [1, () => (body = body.replace('"Point"', '"Polygon"'))],
      [1, () => (body = body.slice(0, Math.max(0, body.length - rng.int(1, 20))))],
      [1, () => (body = '')],
      [
        1,
        () =>
          (contentType = rng.pick(['application/json', 'text/plain', 'text/csv; charset=latin1'])),
      ],
      [1, () => (query = rng.pick(['?dry_run=maybe', '?dryrun=1', '?dry_run=true&dry_run=false']))],
    ])();
  }
  return { query, contentType, body };
}
