import Dexie from 'dexie';
import type { TraplineDb } from '../../db/database';
import type { Owner } from '../../lib/identity';
import { forgetStoredReports, reportOwner } from '../../lib/report-cache';
import { endSiteIndex } from '../../lib/site-index';
import { deleteSnapshot } from '../../lib/site-index-snapshot';

/**
 * Removes `owner`'s data from this tablet: `db`, their records database (sites, collections,
 * pools, tests, the outbox, their lookups and drafts), the site index's snapshot of their sites
 * (its worker ended first, so it writes none again), and their kept reports. Other users' data,
 * and the map tiles every user shares, stay. The caller has made sure nothing of theirs is unsent
 * and has stopped their sync engine.
 *
 * `db` is closed for good first: Dexie reopens a closed database on the next query, and a query
 * still under way (a live query, the last sync) would make it again, empty, where it was deleted.
 * Another tab of the same user hears the deletion (TraplineDb's versionchange) and says its data
 * is gone; the deletion waits for it to close.
 */
export async function removeTabletData(db: TraplineDb, owner: Owner): Promise<void> {
  db.close({ disableAutoOpen: true });
  endSiteIndex(db.name);
  await Promise.all([
    Dexie.delete(db.name),
    deleteSnapshot(db.name),
    // Under the username as typed at sign-in and as stored lowercase: either may have keyed them.
    forgetStoredReports(reportOwner(owner)),
    forgetStoredReports(reportOwner({ ...owner, username: owner.username.toLowerCase() })),
  ]);
}
