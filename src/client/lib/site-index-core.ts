import Supercluster, { type ClusterProperties } from 'supercluster';
import { nearestTo, type LatLon } from './geo';
import { byLocalId, placeOf, siteCheckOf, type SiteCheck } from './site-check';

/**
 * The agency's sites reduced to what the map and the Sites list need, with a cluster index and a
 * search, built once per change of the sites. Runs in a web worker (site-index.worker.ts): the
 * main thread never deserialises 20,000 site records nor clusters them. Pure: tested in Node.
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

export type SearchResult = { total: number; matched: number; shown: IndexedSite[] };
export type NearbySite = { site: IndexedSite; meters: number; bearing: number };
export type IndexSummary = {
  version: number;
  count: number;
  /** [[south, west], [north, east]] of every site with a position, or null when none has one. */
  bounds: [[number, number], [number, number]] | null;
};

/**
 * The site form's checks as the page last received them brought up to date: every check when
 * the page holds none (or ones too old to bring up to date), else the checks changed since and
 * the ids of sites gone since (applyChecks, site-check.ts).
 */
export type ChecksAnswer =
  | { version: number; all: SiteCheck[] }
  | { version: number; changed: SiteCheck[]; removed: string[] };

/** Versions of the index whose changed ids are kept for ChecksAnswer, and how many ids at most. */
const CHECKS_LOG_VERSIONS = 32;
const CHECKS_LOG_IDS = 2_000;

/** Sites are clustered up to this zoom; from the next zoom on every site is drawn on its own. */
export const CLUSTER_MAX_ZOOM = 16;
/**
 * Up to this many sites in view are never summarised as clusters: each is drawn on its own, or
 * in a group with the sites its marker would overlap (groupOverlapping).
 */
export const DRAW_EACH_UP_TO = 100;
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

/** A stored site row, as much of it as the index reads (database.ts SiteRow). */
export type SiteRecordLike = {
  localId: string;
  code: string;
  name: string;
  syncState: string;
  deleted?: boolean;
  createdAt?: number;
  data?: Record<string, unknown> | null;
  server?: Record<string, unknown> | null;
};

/** What a SiteCheck holds beyond the map's fields, for telling a changed site. */
const checkSignature = (c: SiteCheck) => JSON.stringify([c.data, c.server, c.createdAt]);

const signature = (s: IndexedSite) => `${s.lat},${s.lon},${s.state},${s.code},${s.name}`;

export class SiteIndexCore {
  private sites: IndexedSite[] = [];
  /** Lower-case names, same order as `sites` (code order), for the search. */
  private names: string[] = [];
  private signatures = new Map<string, string>();
  private clusters: Supercluster<{ i: number }> | null = null;
  private placed: IndexedSite[] = [];
  private checked: SiteCheck[] = [];
  /** `checked` by localId, made when a page first asks for changes since a version. */
  private checkById: Map<string, SiteCheck> | null = null;
  /** The ids each version changed (added, changed or gone), from the oldest kept. */
  private checksLog: { version: number; ids: string[] }[] = [];
  version = 0;

  /**
   * Replaces the index with these rows (deleted ones left out). Returns the ids of sites added,
   * changed or gone, and bumps `version` when there are any; otherwise keeps everything.
   */
  load(rows: readonly SiteRecordLike[]): string[] {
    const next: IndexedSite[] = [];
    const checked: SiteCheck[] = [];
    const signatures = new Map<string, string>();
    for (const row of rows) {
      if (row.deleted) continue;
      const check = siteCheckOf(row);
      const at = placeOf(row);
      const site: IndexedSite = {
        id: row.localId,
        code: row.code,
        name: row.name,
        state: row.syncState,
        lat: at?.lat ?? Number.NaN,
        lon: at?.lon ?? Number.NaN,
      };
      next.push(site);
      checked.push(check);
      // With what the form checks: a change of a site's dates alone changes the index too.
      signatures.set(site.id, `${signature(site)}|${checkSignature(check)}`);
    }
    const changed: string[] = [];
    for (const [id, sig] of signatures) if (this.signatures.get(id) !== sig) changed.push(id);
    for (const id of this.signatures.keys()) if (!signatures.has(id)) changed.push(id);
    if (changed.length === 0 && this.version > 0) return [];
    next.sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
    this.sites = next;
    this.names = next.map((s) => s.name.toLowerCase());
    this.signatures = signatures;
    this.placed = next.filter((s) => Number.isFinite(s.lat));
    // In localId order, the stored rows' key order (already so when read from IndexedDB): what
    // applyChecks keeps a form's checks in as it brings them up to date.
    this.checked = checked.sort(byLocalId);
    this.checkById = null;
    this.logChanged(this.version + 1, changed);
    this.clusters = new Supercluster<{ i: number }>({
      // 256 px tiles as Leaflet draws them: a radius of 72 screen pixels keeps clusters' 44–60 px
      // targets apart.
      extent: 256,
      radius: 72,
      maxZoom: CLUSTER_MAX_ZOOM,
      minPoints: 2,
    }).load(
      this.placed.map((s, i) => ({
        type: 'Feature' as const,
        properties: { i },
        geometry: { type: 'Point' as const, coordinates: [s.lon, s.lat] },
      })),
    );
    this.version += 1;
    return changed;
  }

  summary(): IndexSummary {
    let s = 90;
    let w = 180;
    let n = -90;
    let e = -180;
    for (const p of this.placed) {
      if (p.lat < s) s = p.lat;
      if (p.lat > n) n = p.lat;
      if (p.lon < w) w = p.lon;
      if (p.lon > e) e = p.lon;
    }
    return {
      version: this.version,
      count: this.sites.length,
      bounds:
        this.placed.length > 0
          ? [
              [s, w],
              [n, e],
            ]
          : null,
    };
  }

  /** Sites whose code or name contains `query` (any case), in code order: the first `limit`. */
  search(query: string, limit: number): SearchResult {
    const q = query.trim().toLowerCase();
    if (q === '')
      return {
        total: this.sites.length,
        matched: this.sites.length,
        shown: this.sites.slice(0, limit),
      };
    const shown: IndexedSite[] = [];
    let matched = 0;
    for (let i = 0; i < this.sites.length; i += 1) {
      if (!this.sites[i].code.includes(q) && !this.names[i].includes(q)) continue;
      matched += 1;
      if (shown.length < limit) shown.push(this.sites[i]);
    }
    return { total: this.sites.length, matched, shown };
  }

  /** Clusters and sites within [west, south, east, north] at a (whole) map zoom. */
  view(bbox: [number, number, number, number], zoom: number): MapFeature[] {
    if (!this.clusters) return [];
    const [w, s, e, n] = bbox;
    const box: [number, number, number, number] = [
      Math.max(-180, w),
      Math.max(-85, s),
      Math.min(180, e),
      Math.min(85, n),
    ];
    let z = Math.max(0, Math.round(zoom));
    let found = this.clusters.getClusters(box, z);
    // Few sites in view are drawn one by one: a cluster would only hide them.
    if (z <= CLUSTER_MAX_ZOOM && found.length < DRAW_EACH_UP_TO) {
      const inView = found.reduce(
        (sum, f) => sum + ((f.properties as Partial<ClusterProperties>).point_count ?? 1),
        0,
      );
      if (inView <= DRAW_EACH_UP_TO) {
        z = CLUSTER_MAX_ZOOM + 1;
        found = this.clusters.getClusters(box, z);
      }
    }
    const features = found.map((f): MapFeature => {
      const [lon, lat] = f.geometry.coordinates;
      const props = f.properties as Partial<ClusterProperties> & { i?: number };
      if (props.cluster && typeof props.cluster_id === 'number') {
        return {
          kind: 'cluster',
          // Same place and count, same marker: a cluster nothing changed in is not redrawn.
          key: `c:${lat.toFixed(7)},${lon.toFixed(7)}:${props.point_count}`,
          lat,
          lon,
          count: props.point_count ?? 0,
          zoomTo: Math.min(
            this.clusters!.getClusterExpansionZoom(props.cluster_id),
            CLUSTER_MAX_ZOOM + 1,
          ),
        };
      }
      const site = this.placed[props.i ?? 0];
      return { kind: 'site', key: `s:${site.id}:${signature(site)}`, lat, lon, site };
    });
    return groupOverlapping(features, Math.max(0, Math.round(zoom)));
  }

  /** Every site not deleted, as the site form checks against them. */
  checks(): SiteCheck[] {
    return this.checked;
  }

  /**
   * The checks for a page that holds them as of version `known` (null: none): only what changed
   * since when the log reaches back that far. A drain's acknowledgements change one site at a
   * time, and 20,000 checks received again for each froze an open form ~250 ms on a tablet.
   */
  checksSince(known: number | null): ChecksAnswer {
    const { version } = this;
    const oldest = this.checksLog[0]?.version;
    if (known === null || known > version || oldest === undefined || known < oldest - 1)
      return { version, all: this.checked };
    const ids = new Set<string>();
    for (const entry of this.checksLog)
      if (entry.version > known) for (const id of entry.ids) ids.add(id);
    const changed: SiteCheck[] = [];
    const removed: string[] = [];
    this.checkById ??= new Map(this.checked.map((c) => [c.localId, c]));
    for (const id of ids) {
      const check = this.checkById.get(id);
      if (check) changed.push(check);
      else removed.push(id);
    }
    return { version, changed, removed };
  }

  /** Keeps `ids` as what `version` changed, dropping the oldest versions past the bounds. */
  private logChanged(version: number, ids: string[]): void {
    this.checksLog.push({ version, ids });
    let kept = this.checksLog.reduce((sum, e) => sum + e.ids.length, 0);
    while (
      this.checksLog.length > 1 &&
      (this.checksLog.length > CHECKS_LOG_VERSIONS || kept > CHECKS_LOG_IDS)
    ) {
      kept -= this.checksLog.shift()!.ids.length;
    }
  }

  /** The `count` sites nearest to `here`, with distance (m) and bearing (degrees from north). */
  nearest(here: LatLon, count: number): NearbySite[] {
    return nearestTo(this.placed, here, count).map(({ item, meters, bearing }) => ({
      site: item,
      meters,
      bearing,
    }));
  }
}

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
function groupOverlapping(features: MapFeature[], zoom: number): MapFeature[] {
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
      key: `g:${zoomTo}:${list.map((s) => `${s.id}:${signature(s)}`).join('|')}`,
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

/** Messages to the worker. `id` pairs a question with its answer. */
export type IndexRequest =
  | { type: 'open'; dbName: string }
  | { type: 'watch'; on: boolean }
  | { type: 'search'; id: number; query: string; limit: number }
  | { type: 'view'; id: number; bbox: [number, number, number, number]; zoom: number }
  | { type: 'nearest'; id: number; here: LatLon; count: number }
  | { type: 'checksSince'; id: number; known: number | null };

/**
 * Messages from the worker: the index changed (with how many sites did: their ids would cost the
 * page a long task to receive after a first read of 20,000), or an answer.
 */
export type IndexMessage =
  | { type: 'loaded'; summary: IndexSummary; changed: number }
  | { type: 'answer'; id: number; result: unknown }
  /** Checks of a ChecksAnswer sent ahead of its 'answer', which holds the last of them. */
  | { type: 'checksPart'; id: number; checks: SiteCheck[] }
  | { type: 'failed'; message: string };
