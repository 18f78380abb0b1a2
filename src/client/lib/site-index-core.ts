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

const byCode = (a: IndexedSite, b: IndexedSite) =>
  a.code < b.code ? -1 : a.code > b.code ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

/**
 * The site features whose markers would overlap at `zoom` (closer than MARKERS_APART_PX, directly
 * or through a chain of neighbours) made one 'group' feature each, at their centre; other
 * features untouched. Clusters need no grouping: Supercluster already keeps them 72 px apart.
 *
 * Sites are bucketed in a grid of MARKERS_APART_PX cells, so each is compared with the sites of
 * its own and the 8 neighbouring cells only: linear in the sites drawn, at any count.
 */
function groupOverlapping(features: MapFeature[], zoom: number): MapFeature[] {
  const sites: { f: Extract<MapFeature, { kind: 'site' }>; x: number; y: number }[] = [];
  for (const f of features)
    if (f.kind === 'site') sites.push({ f, ...worldPixel(f.lat, f.lon, zoom) });
  if (sites.length < 2) return features;
  const cellOf = (x: number, y: number) =>
    `${Math.floor(x / MARKERS_APART_PX)},${Math.floor(y / MARKERS_APART_PX)}`;
  const cells = new Map<string, number[]>();
  sites.forEach((s, i) => {
    const cell = cellOf(s.x, s.y);
    const list = cells.get(cell);
    if (list) list.push(i);
    else cells.set(cell, [i]);
  });
  // Union-find over overlapping pairs: a chain of neighbours is one group.
  const parent = sites.map((_, i) => i);
  const root = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]];
      i = parent[i];
    }
    return i;
  };
  let joined = false;
  sites.forEach((s, i) => {
    const cx = Math.floor(s.x / MARKERS_APART_PX);
    const cy = Math.floor(s.y / MARKERS_APART_PX);
    for (let dx = -1; dx <= 1; dx += 1)
      for (let dy = -1; dy <= 1; dy += 1)
        for (const j of cells.get(`${cx + dx},${cy + dy}`) ?? []) {
          if (j <= i) continue;
          const o = sites[j];
          if (Math.hypot(s.x - o.x, s.y - o.y) >= MARKERS_APART_PX) continue;
          const [a, b] = [root(i), root(j)];
          if (a !== b) {
            parent[b] = a;
            joined = true;
          }
        }
  });
  if (!joined) return features;
  const members = new Map<number, number[]>();
  sites.forEach((_, i) => {
    const r = root(i);
    const list = members.get(r);
    if (list) list.push(i);
    else members.set(r, [i]);
  });
  const out: MapFeature[] = features.filter((f) => f.kind !== 'site');
  for (const group of members.values()) {
    if (group.length === 1) {
      out.push(sites[group[0]].f);
      continue;
    }
    const inGroup = group.map((i) => sites[i]);
    const list = inGroup.map((s) => s.f.site).sort(byCode);
    const lat = inGroup.reduce((sum, s) => sum + s.f.lat, 0) / inGroup.length;
    const lon = inGroup.reduce((sum, s) => sum + s.f.lon, 0) / inGroup.length;
    const apart = bottleneckPx(inGroup);
    // The zoom at which the closest link holding the group together is MARKERS_APART_PX long.
    const zoomTo =
      apart === 0 ? null : zoom + Math.max(1, Math.ceil(Math.log2(MARKERS_APART_PX / apart)));
    out.push({
      kind: 'group',
      key: `g:${list.map((s) => `${s.id}:${signature(s)}`).join('|')}`,
      lat,
      lon,
      sites: list,
      zoomTo: zoomTo === null || zoomTo > MAP_MAX_ZOOM ? null : zoomTo,
    });
  }
  return out;
}

/**
 * The longest link of the shortest tree joining these points (px): the group stays one until
 * that link is MARKERS_APART_PX long on screen. Prim's algorithm, quadratic: a group is a
 * handful of sites (at most DRAW_EACH_UP_TO when few are in view; sites overlapping in a dense
 * view are already clusters). A larger one (thousands of sites beyond CLUSTER_MAX_ZOOM) is said to
 * come apart one zoom further in, which is where a tap on it then goes.
 */
function bottleneckPx(points: readonly { x: number; y: number }[]): number {
  const n = points.length;
  if (n > 400) return MARKERS_APART_PX / 2;
  const best = new Array<number>(n).fill(Infinity);
  const done = new Array<boolean>(n).fill(false);
  best[0] = 0;
  let longest = 0;
  for (let k = 0; k < n; k += 1) {
    let next = -1;
    for (let i = 0; i < n; i += 1) if (!done[i] && (next < 0 || best[i] < best[next])) next = i;
    done[next] = true;
    longest = Math.max(longest, best[next]);
    for (let i = 0; i < n; i += 1) {
      if (done[i]) continue;
      const d = Math.hypot(points[i].x - points[next].x, points[i].y - points[next].y);
      if (d < best[i]) best[i] = d;
    }
  }
  return longest;
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
