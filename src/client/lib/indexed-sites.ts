import { placeOf } from './site-check';
import type { IndexedSite } from './site-map-features';

/**
 * What the site index keeps of a stored site (IndexedSite), and the shape of its snapshot: what
 * the index's worker and the pull writer's worker both make, without the index's clustering.
 */

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

/** What the index keeps of a stored site row: what the map draws and the list shows. */
export function indexedSiteOf(row: SiteRecordLike): IndexedSite {
  const at = placeOf(row);
  return {
    id: row.localId,
    code: row.code,
    name: row.name,
    state: row.syncState,
    lat: at?.lat ?? Number.NaN,
    lon: at?.lon ?? Number.NaN,
  };
}

/**
 * What the map and the Sites list show of the index (its sites, not the form's checks), kept in
 * storage between visits so the next first opening draws before the sites are read again
 * (site-index-snapshot.ts). Columns, not one object per site: read back in a few milliseconds.
 */
export type SiteIndexSnapshot = {
  format: typeof SNAPSHOT_FORMAT;
  ids: string[];
  codes: string[];
  names: string[];
  states: string[];
  lats: Float64Array;
  lons: Float64Array;
};

/** Bumped whenever the snapshot's shape or meaning changes: an older one is not used. */
export const SNAPSHOT_FORMAT = 1;

/** `sites`, in any order, as a snapshot (SiteIndexCore.loadSnapshot puts them in code order). */
export function snapshotOf(sites: readonly IndexedSite[]): SiteIndexSnapshot {
  return {
    format: SNAPSHOT_FORMAT,
    ids: sites.map((s) => s.id),
    codes: sites.map((s) => s.code),
    names: sites.map((s) => s.name),
    states: sites.map((s) => s.state),
    lats: Float64Array.from(sites, (s) => s.lat),
    lons: Float64Array.from(sites, (s) => s.lon),
  };
}

/** A snapshot's sites, in its order (the columns of snapshotOf, one site each). */
export function sitesOfSnapshot(snapshot: SiteIndexSnapshot): IndexedSite[] {
  return snapshot.ids.map((id, i) => ({
    id,
    code: snapshot.codes[i],
    name: snapshot.names[i],
    state: snapshot.states[i],
    lat: snapshot.lats[i],
    lon: snapshot.lons[i],
  }));
}
