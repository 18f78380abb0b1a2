import type { TraplineDb } from '../db/database';
import type { AnyRecordRow } from '../db/record-tables';
import { indexedSiteOf, snapshotOf, type SiteRecordLike } from '../lib/indexed-sites';
import { snapshotKept, writeSnapshot } from '../lib/site-index-snapshot';
import type { IndexedSite } from '../lib/site-map-features';

/**
 * The sites a pull stored, as the site index shows them, kept by the pull writer's worker so that
 * sign-in's first pull leaves the index a snapshot (site-index-snapshot.ts) without the index
 * reading 20,000 sites back to make one: the Sites screen's first opening then draws them at
 * once, and the index reads the sites as stored behind it (which corrects anything the snapshot
 * lacks). A cache of a cache: a snapshot not kept costs only that wait.
 */
export class PulledSites {
  /** By localId: a site stored twice (listed on two pages, pulled again) is the last one stored. */
  private readonly sites = new Map<string, IndexedSite>();

  constructor(readonly dbName: string) {}

  /** Site records a pull's batch stored (their transaction committed). */
  add(records: readonly AnyRecordRow[]): void {
    for (const record of records) {
      const site = indexedSiteOf(record as unknown as SiteRecordLike);
      this.sites.set(site.id, site);
    }
  }

  /**
   * Keeps the sites stored as `db`'s snapshot when they are every site the tablet holds (the
   * count alike: a first pull into an empty table, with nothing made here meanwhile) and no
   * snapshot database is there yet (the index keeps its own once it has read the sites; an
   * empty one the index fills in when it next writes). Forgets them
   * either way. Returns whether the snapshot was kept.
   */
  async keep(db: TraplineDb): Promise<boolean> {
    const sites = [...this.sites.values()];
    this.sites.clear();
    if (sites.length === 0) return false;
    // Asked first: after sign-in's first pull a snapshot is there, and every later pull (which
    // stores only what changed) then costs no count of the tablet's sites.
    if (await snapshotKept(this.dbName)) return false;
    if ((await db.sites.count()) !== sites.length) return false;
    await writeSnapshot(this.dbName, snapshotOf(sites));
    return true;
  }
}
