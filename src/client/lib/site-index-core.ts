import Supercluster, { type ClusterProperties } from 'supercluster';
import { nearestTo, type LatLon } from './geo';
import {
  indexedSiteOf,
  SNAPSHOT_FORMAT,
  snapshotOf,
  sitesOfSnapshot,
  type SiteIndexSnapshot,
  type SiteRecordLike,
} from './indexed-sites';
import { byLocalId, siteCheckOf, type SiteCheck } from './site-check';
import type { ChecksAnswer, IndexSummary } from './site-index-protocol';
import {
  groupOverlapping,
  markerSignature,
  type IndexedSite,
  type MapFeature,
} from './site-map-features';

/**
 * The agency's sites reduced to what the map and the Sites list need, with a cluster index and a
 * search, built once per change of the sites. Runs in a web worker (site-index.worker.ts): the
 * main thread never deserialises 20,000 site records nor clusters them. Pure: tested in Node.
 */

export type { SiteIndexSnapshot, SiteRecordLike } from './indexed-sites';
export type SearchResult = { total: number; matched: number; shown: IndexedSite[] };
export type NearbySite = { site: IndexedSite; meters: number; bearing: number };

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

/** Equal as JSON values: the same numbers (NaN too), strings, arrays and keys, in any key order. */
function sameJson(x: unknown, y: unknown): boolean {
  if (x === y) return true;
  if (typeof x === 'number' && typeof y === 'number') return Number.isNaN(x) && Number.isNaN(y);
  if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) return false;
  if (Array.isArray(x) || Array.isArray(y)) {
    if (!Array.isArray(x) || !Array.isArray(y) || x.length !== y.length) return false;
    return x.every((v, i) => sameJson(v, y[i]));
  }
  const a = x as Record<string, unknown>;
  const b = y as Record<string, unknown>;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => Object.hasOwn(b, k) && sameJson(a[k], b[k]));
}

/** The same marker (markerSignature's fields: place, state, code, name). */
const sameMarker = (a: IndexedSite, b: IndexedSite) =>
  sameJson(a.lat, b.lat) &&
  sameJson(a.lon, b.lon) &&
  a.state === b.state &&
  a.code === b.code &&
  a.name === b.name;

/** The same in what the site form checks (a SiteCheck beyond the map's fields). */
const sameCheck = (a: SiteCheck, b: SiteCheck) =>
  a.createdAt === b.createdAt && sameJson(a.data, b.data) && sameJson(a.server, b.server);

export class SiteIndexCore {
  private sites: IndexedSite[] = [];
  /** Lower-case names, same order as `sites` (code order), for the search. */
  private names: string[] = [];
  private clusters: Supercluster<{ i: number }> | null = null;
  private placed: IndexedSite[] = [];
  private checked: SiteCheck[] = [];
  /** `checked` by localId, made when a page first asks for changes since a version. */
  private checkById: Map<string, SiteCheck> | null = null;
  /** The ids each version changed (added, changed or gone), from the oldest kept. */
  private checksLog: { version: number; ids: string[] }[] = [];
  version = 0;
  /**
   * The sites as stored were read (a `load`), not only a snapshot of an earlier visit: until
   * then the index has no checks, and a site form must not be told the sites are only those.
   */
  confirmed = false;

  /**
   * Replaces the index with these rows (deleted ones left out). Returns the ids of sites added,
   * changed or gone, and bumps `version` when there are any; otherwise keeps everything.
   */
  load(rows: readonly SiteRecordLike[]): string[] {
    const next: IndexedSite[] = [];
    const checked: SiteCheck[] = [];
    for (const row of rows) {
      if (row.deleted) continue;
      next.push(indexedSiteOf(row));
      checked.push(siteCheckOf(row));
    }
    // The first load changes every site: nothing to compare, so no time spent comparing (the
    // Sites screen waits for this load when it first opens).
    const changed = this.version === 0 ? next.map((s) => s.id) : this.changedFrom(next, checked);
    const firstRead = !this.confirmed;
    this.confirmed = true;
    if (changed.length === 0 && this.version > 0) {
      // The snapshot shown was right: the map stays as drawn, and the checks come now.
      if (firstRead) this.keepChecks(checked);
      return [];
    }
    this.keepChecks(checked);
    this.logChanged(this.version + 1, changed);
    this.install(next);
    return changed;
  }

  /**
   * Shows the sites of an earlier visit until `load` reads them as stored (which names what
   * changed since). Not taken once the sites were read, nor in another format: false then.
   */
  loadSnapshot(snapshot: SiteIndexSnapshot): boolean {
    if (this.version > 0 || snapshot.format !== SNAPSHOT_FORMAT) return false;
    this.logChanged(1, []);
    this.install(sitesOfSnapshot(snapshot));
    return true;
  }

  /** The sites shown, for the next visit's first opening (loadSnapshot). */
  snapshot(): SiteIndexSnapshot {
    return snapshotOf(this.sites);
  }

  private keepChecks(checked: SiteCheck[]): void {
    // In localId order, the stored rows' key order (already so when read from IndexedDB): what
    // applyChecks keeps a form's checks in as it brings them up to date.
    this.checked = checked.sort(byLocalId);
    this.checkById = null;
  }

  /** Makes `next` the sites shown, searched and clustered, as the next version. */
  private install(next: IndexedSite[]): void {
    next.sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
    this.sites = next;
    this.names = next.map((s) => s.name.toLowerCase());
    this.placed = next.filter((s) => Number.isFinite(s.lat));
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
  }

  /**
   * Ids of the sites added, changed or gone since the last load, `next` and `checked` being the
   * new sites and their checks in the same order. Changed: in what the map draws or the form
   * checks (a change of a site's dates alone changes the index too), not in what neither reads.
   * Compared field by field: a JSON signature of every site cost a third of a load's time.
   */
  private changedFrom(next: IndexedSite[], checked: SiteCheck[]): string[] {
    const sitesBefore = new Map(this.sites.map((s) => [s.id, s]));
    // Shown from a snapshot: no checks yet to compare, and no form holds any (checksSince).
    const checksBefore = this.confirmed
      ? (this.checkById ??= new Map(this.checked.map((c) => [c.localId, c])))
      : null;
    const changed: string[] = [];
    for (let i = 0; i < next.length; i += 1) {
      const id = next[i].id;
      const site = sitesBefore.get(id);
      const check = checksBefore?.get(id);
      const sameChecks = !checksBefore || (check !== undefined && sameCheck(check, checked[i]));
      if (!site || !sameMarker(site, next[i]) || !sameChecks) changed.push(id);
      sitesBefore.delete(id);
    }
    // Gone: in the last load, not in this one.
    for (const id of sitesBefore.keys()) changed.push(id);
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
      return { kind: 'site', key: `s:${site.id}:${markerSignature(site)}`, lat, lon, site };
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
