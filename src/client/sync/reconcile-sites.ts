import { eachPage } from './list-pages';
import type { PullOptions } from './pull-options';
import type { SyncContext } from './sync-context';

/** When the local sites were last checked against the server's list of active site ids (ms). */
const SITE_RECONCILE_META_KEY = 'sync.reconcile.site';

/**
 * Removes local sites the server no longer lists (deleted), at most once per `reconcileEveryMs`.
 * Only a site with nothing of the user's at stake goes: synced, no outbox entry, and no child
 * collection with a local change. Its synced children stay (the server keeps them too).
 * `listed`: every active site id, when this pull's own walk of the sites listed them all (the
 * first pull); the check then costs no second listing.
 */
export async function reconcileSites(
  ctx: SyncContext,
  options: PullOptions,
  listed: Set<number> | null,
): Promise<number> {
  const last = (await ctx.db.meta.get(SITE_RECONCILE_META_KEY))?.value;
  // A check stamped later than now was made before the clock was set back: due again.
  const now = ctx.now();
  if (!listed && typeof last === 'number' && last <= now && now - last < options.reconcileEveryMs)
    return 0;
  const startedAt = ctx.now();
  let active: Set<unknown> = listed ?? new Set();
  if (!listed) {
    const ids = new Set<unknown>();
    const listing = await eachPage(
      ctx,
      'site',
      { fields: ['id'] },
      options.pageSize,
      async (rows) => {
        for (const row of rows) ids.add(row.id);
      },
    );
    // A listing that may lack sites proves nothing about the missing ones: remove none.
    if (!listing.complete) return 0;
    active = ids;
  }
  const { db } = ctx;
  const removed = await db.transaction('rw', db.sites, db.collections, db.outbox, async () => {
    // Compared on the serverId index's keys alone: no site row is read unless it is gone.
    const local = (await db.sites.orderBy('serverId').keys()) as number[];
    const goneIds = local.filter((id) => !active.has(id));
    if (goneIds.length === 0) return 0;
    const gone = await db.sites.where('serverId').anyOf(goneIds).toArray();
    let count = 0;
    for (const site of gone) {
      if (site.syncState !== 'synced') continue;
      if ((await db.outbox.where('localId').equals(site.localId).count()) > 0) continue;
      const children = await db.collections.where('parentLocalId').equals(site.localId).toArray();
      let childChanged = false;
      for (const child of children) {
        if (
          child.syncState !== 'synced' ||
          (await db.outbox.where('localId').equals(child.localId).count()) > 0
        )
          childChanged = true;
      }
      if (childChanged) continue;
      await db.sites.delete(site.localId);
      count += 1;
    }
    return count;
  });
  await db.meta.put({ key: SITE_RECONCILE_META_KEY, value: startedAt });
  return removed;
}
