import { useEffect } from 'react';
import { showKeptSites, warmSiteIndex } from '../lib/site-index';
import type { SyncEngine } from '../sync';

/**
 * Starts the site index of `dbName` once a pull has got through in this page (this tab's or
 * another's): the sites are then as current as they will be for a while, and the index's worker
 * reads and clusters them while the technician is on Home, not after Sites is tapped (about 4.5 s
 * at 20,000 sites on a mid-range tablet, after sign-in's first pull). Not before the pull: its
 * read would wait behind the pull's writes, and read again after them. Before the pull, a
 * tablet that kept a snapshot of its sites shows that one in the index (showKeptSites).
 */
export function useSiteIndexAfterPull(engine: SyncEngine | null, dbName: string): void {
  useEffect(() => {
    if (!engine) return;
    const warmIfPulled = (pulledAt: number | null) => {
      if (pulledAt === null) return false;
      warmSiteIndex(dbName);
      return true;
    };
    if (warmIfPulled(engine.getStatus().lastPullAt)) return;
    // A cache: a snapshot that cannot be asked about only leaves Sites to start the index.
    showKeptSites(dbName).catch(() => undefined);
    const unsubscribe = engine.subscribe((status) => {
      if (warmIfPulled(status.lastPullAt)) unsubscribe();
    });
    return unsubscribe;
  }, [engine, dbName]);
}
