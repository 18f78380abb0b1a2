import type { LatLon } from './geo';

/**
 * What the map draws of the site index: its sites, the features in view, and the grouping of
 * sites whose markers would overlap at a zoom. Pure (Web Mercator pixel arithmetic): runs in the
 * index's worker, tested in Node through SiteIndexCore.view.
 */

/** A site as the index keeps it. `state` is the record's sync state. */
export type IndexedSite = LatLon & {
  id: string;
  code: string;
  name: string;
  state: string;
};

/**
 * What is drawn in view: a cluster of sites (many in view: the density's summary), one site, or
 * a group of sites whose markers would overlap at this zoom (two traps on one creek, or on one
 * post), in code order, drawn as one to choose from. A group's `zoomTo` is the zoom at which its
 * sites come apart, or null when they overlap even at MAP_MAX_ZOOM (the same spot). `key` is
 * stable while the feature is unchanged.
 */
export type MapFeature =
  | { kind: 'cluster'; key: string; lat: number; lon: number; count: number; zoomTo: number }
  | { kind: 'site'; key: string; lat: number; lon: number; site: IndexedSite }
  | {
      kind: 'group';
      key: string;
      lat: number;
      lon: number;
      sites: IndexedSite[];
      zoomTo: number | null;
    };

/**
 * The deepest zoom the map offers (Leaflet's tile layer default): sites still overlapping there
 * can only be told apart from a list.
 */
export const MAP_MAX_ZOOM = 18;
/**
 * Markers closer than this on screen (px) are one group: a site's tap target is 44 px across
 * (sites-layer.ts), so two nearer than that take each other's taps, and a gloved finger lands on
 * the wrong site.
 */
export const MARKERS_APART_PX = 44;

/** What a marker shows of a site: a marker whose signature is unchanged is not redrawn. */
export const markerSignature = (s: IndexedSite) =>
  `${s.lat},${s.lon},${s.state},${s.code},${s.name}`;

/** A place in pixels of the whole world drawn at `zoom` (Web Mercator, 256 px tiles). */
function worldPixel(lat: number, lon: number, zoom: number): { x: number; y: number } {
  const size = 256 * 2 ** zoom;
  const sin = Math.min(0.9999, Math.max(-0.9999, Math.sin((lat * Math.PI) / 180)));
  return {
    x: ((lon + 180) / 360) * size,
    y: (0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)) * size,
  };
}

/** The place drawn at world pixel (x, y) at `zoom`: worldPixel's inverse. */
function placeOfPixel(x: number, y: number, zoom: number): { lat: number; lon: number } {
  const size = 256 * 2 ** zoom;
  const n = Math.PI - (2 * Math.PI * y) / size;
  return { lon: (x / size) * 360 - 180, lat: (180 / Math.PI) * Math.atan(Math.sinh(n)) };
}

const byCode = (a: IndexedSite, b: IndexedSite) =>
  a.code < b.code ? -1 : a.code > b.code ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

/** Sites drawn as one marker at (x, y): the centre of its members, in world pixels. */
type Blob = { x: number; y: number; members: number[] };

/**
 * Markers that would overlap (centres closer than MARKERS_APART_PX) merged until none does: each
 * pass joins every pair of markers that are each other's nearest overlapping one (the closest
 * pair always is, so each pass joins at least one) into one at their members' centre. Merging
 * by the markers' own centres, not by any two members, keeps a town's sites from chaining into
 * the next town's. Neighbours are found through a grid of MARKERS_APART_PX cells.
 */
function mergeOverlapping(points: readonly { x: number; y: number }[]): Blob[] {
  let blobs: Blob[] = points.map((p, i) => ({ x: p.x, y: p.y, members: [i] }));
  for (;;) {
    const cells = new Map<string, number[]>();
    const cellOf = (b: Blob) => [
      Math.floor(b.x / MARKERS_APART_PX),
      Math.floor(b.y / MARKERS_APART_PX),
    ];
    blobs.forEach((b, i) => {
      const key = cellOf(b).join(',');
      const list = cells.get(key);
      if (list) list.push(i);
      else cells.set(key, [i]);
    });
    const nearest = blobs.map((b) => {
      const [cx, cy] = cellOf(b);
      let best = -1;
      let bestD = MARKERS_APART_PX;
      for (let dx = -1; dx <= 1; dx += 1)
        for (let dy = -1; dy <= 1; dy += 1)
          for (const j of cells.get(`${cx + dx},${cy + dy}`) ?? []) {
            const o = blobs[j];
            if (o === b) continue;
            const d = Math.hypot(b.x - o.x, b.y - o.y);
            if (d < bestD || (d === bestD && best >= 0 && j < best)) {
              best = j;
              bestD = d;
            }
          }
      return best;
    });
    const next: Blob[] = [];
    let merged = false;
    blobs.forEach((b, i) => {
      const j = nearest[i];
      if (j >= 0 && nearest[j] === i) {
        if (j < i) return; // joined when its partner came
        const o = blobs[j];
        const n = b.members.length + o.members.length;
        next.push({
          x: (b.x * b.members.length + o.x * o.members.length) / n,
          y: (b.y * b.members.length + o.y * o.members.length) / n,
          members: [...b.members, ...o.members],
        });
        merged = true;
      } else next.push(b);
    });
    if (!merged) return blobs;
    blobs = next;
  }
}

/**
 * The site features whose markers would overlap at `zoom` made one 'group' feature each
 * (mergeOverlapping), at their members' centre; other features untouched. Clusters need no
 * grouping: Supercluster already keeps them 72 px apart.
 */
export function groupOverlapping(features: MapFeature[], zoom: number): MapFeature[] {
  const sites: { f: Extract<MapFeature, { kind: 'site' }>; x: number; y: number }[] = [];
  for (const f of features)
    if (f.kind === 'site') sites.push({ f, ...worldPixel(f.lat, f.lon, zoom) });
  if (sites.length < 2) return features;
  const blobs = mergeOverlapping(sites);
  if (blobs.length === sites.length) return features;
  const out: MapFeature[] = features.filter((f) => f.kind !== 'site');
  for (const blob of blobs) {
    if (blob.members.length === 1) {
      out.push(sites[blob.members[0]].f);
      continue;
    }
    const list = blob.members.map((i) => sites[i].f.site).sort(byCode);
    const zoomTo = comesApartAt(list, zoom);
    out.push({
      kind: 'group',
      // With where a tap takes it: the same sites seen from another zoom come apart elsewhere.
      key: `g:${zoomTo}:${list.map((s) => `${s.id}:${markerSignature(s)}`).join('|')}`,
      ...placeOfPixel(blob.x, blob.y, zoom),
      sites: list,
      zoomTo,
    });
  }
  return out;
}

/**
 * The first zoom after `zoom` at which these sites are no longer one marker, or null when they
 * are one up to MAP_MAX_ZOOM (the same spot). A group of hundreds (beyond CLUSTER_MAX_ZOOM in a
 * dense district) is said to come apart one zoom in, where a tap on it then goes, if it comes
 * apart at all: one still one marker at MAP_MAX_ZOOM (an import that put every site at the
 * office) is null, listed on a tap, or its sites could never be reached.
 */
function comesApartAt(sites: readonly IndexedSite[], zoom: number): number | null {
  const apartAt = (z: number) =>
    mergeOverlapping(sites.map((s) => worldPixel(s.lat, s.lon, z))).length > 1;
  if (zoom >= MAP_MAX_ZOOM) return null;
  if (sites.length > 400) return apartAt(MAP_MAX_ZOOM) ? zoom + 1 : null;
  for (let z = zoom + 1; z <= MAP_MAX_ZOOM; z += 1) if (apartAt(z)) return z;
  return null;
}
