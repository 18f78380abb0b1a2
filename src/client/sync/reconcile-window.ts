import { refId } from '#shared';
import { activeIds } from './list-pages';
import { POOL_TYPES, speciesTypes } from './pool-types';
import type { PullOptions } from './pull-options';
import type { AnyRecordRow } from '../db/record-tables';
import type { SyncContext } from './sync-context';

/**
 * When the local collections and pools of the pulled window were last checked against the
 * server's lists of active ids (ms).
 */
const WINDOW_RECONCILE_META_KEY = 'sync.reconcile.window';

/**
 * Removes the local collections of the pulled window (collection_date on or after `since`), their
 * pools and the pools' tests, that the server no longer lists: deleted in the office, or moved out
 * of the window (deleted records leave the lists, so the incremental pull never hears of them).
 * At most once per `reconcileEveryMs`, by listing the active ids of the window (one small request
 * per list, and none for a list of which the tablet holds nothing that could go); the first pull's
 * own walks serve as the listing when they were whole (`listedCollections`, `listedPools`: the
 * mosquito pools the pull lists).
 * Only what holds nothing of the technician's goes: a record synced, not deleted here, with no
 * outbox entry, and whose children (pools, their tests) are all so too; a collection goes with all
 * its pools, a pool with its tests. A deleted pool's tests stay active on the server, and are only
 * pulled for pools the tablet holds: they do not bring it back. Tombstones (deleted here, kept for
 * a late acknowledgement) are left alone.
 */
export async function reconcileWindow(
  ctx: SyncContext,
  options: PullOptions,
  since: string,
  listedCollections: Set<number> | null,
  listedPools: Set<number> | null,
): Promise<number> {
  const { db } = ctx;
  const last = (await db.meta.get(WINDOW_RECONCILE_META_KEY))?.value;
  // A check stamped later than now was made before the clock was set back: due again.
  const now = ctx.now();
  const due = typeof last !== 'number' || last > now || now - last >= options.reconcileEveryMs;
  if (!due && !listedCollections && !listedPools) return 0;
  const startedAt = ctx.now();
  const types = await speciesTypes(ctx);
  const typeOf = (pool: AnyRecordRow): string | undefined => {
    const id = refId(
      (pool.data.species ?? pool.server?.species) as number | { id: number } | null | undefined,
    );
    return id === null ? undefined : types(id);
  };
  const synced = (r: AnyRecordRow) => r.serverId !== null && r.syncState === 'synced' && !r.deleted;

  // What could go, read before listing: nothing to list for a list of which nothing could go.
  const { collections: windowCollections, pools: windowPools } = await windowRecords(ctx, since);
  let activeCollections = listedCollections;
  if (!activeCollections && due && windowCollections.some(synced)) {
    const dated = { query: { collection_date: { $gte: since } } };
    activeCollections = await activeIds(ctx, 'collection', dated, options.pageSize);
  }
  const activePools = new Map<string, Set<number> | null>();
  if (listedPools) activePools.set('mosquito', listedPools);
  if (due) {
    for (const type of POOL_TYPES) {
      if (activePools.has(type) || !windowPools.some((p) => synced(p) && typeOf(p) === type))
        continue;
      // Mosquito pools as the pull lists them (no `type`: the default, and any upstream takes it).
      const filter = {
        query: { collection_date: { $gte: since } },
        ...(type !== 'mosquito' ? { type } : {}),
      };
      activePools.set(type, await activeIds(ctx, 'pool', filter, options.pageSize));
    }
  }

  const removed = await db.transaction(
    'rw',
    [db.collections, db.pools, db.poolTests, db.outbox],
    async () => {
      // Read again in this transaction: the technician may have saved since.
      const { collections, pools } = await windowRecords(ctx, since);
      const tests = pools.length
        ? await db.poolTests
            .where('parentLocalId')
            .anyOf(pools.map((p) => p.localId))
            .toArray()
        : [];
      const withEntry = new Set(
        (
          await db.outbox
            .where('localId')
            .anyOf([...collections, ...pools, ...tests].map((r) => r.localId))
            .toArray()
        ).map((e) => e.localId),
      );
      const untouched = (r: AnyRecordRow) => synced(r) && !withEntry.has(r.localId);
      const testsOf = byParent(tests);
      const poolsOf = byParent(pools);
      // A pool may go when it and its tests hold nothing of the technician's (tombstones aside).
      const free = (p: AnyRecordRow) =>
        untouched(p) && (testsOf.get(p.localId) ?? []).every((t) => t.deleted || untouched(t));
      const listedActive = (p: AnyRecordRow) => {
        const type = typeOf(p);
        const ids = type === undefined ? undefined : activePools.get(type);
        return ids === undefined || ids === null ? null : ids.has(p.serverId!);
      };
      const gonePools = new Set<string>();
      const goneCollections: string[] = [];
      for (const c of collections) {
        const children = poolsOf.get(c.localId) ?? [];
        const live = children.filter((p) => !p.deleted);
        const gone =
          activeCollections !== null &&
          untouched(c) &&
          !activeCollections.has(c.serverId!) &&
          // Its pools go with it (the server retired them, or they left the window with it);
          // one the server still lists, or one holding the technician's work, keeps it here.
          live.every((p) => free(p) && listedActive(p) !== true);
        if (gone) {
          goneCollections.push(c.localId);
          for (const p of live) gonePools.add(p.localId);
          continue;
        }
        for (const p of live) if (free(p) && listedActive(p) === false) gonePools.add(p.localId);
      }
      const goneTests = tests
        .filter((t) => gonePools.has(t.parentLocalId!) && !t.deleted)
        .map((t) => t.localId);
      await db.poolTests.bulkDelete(goneTests);
      await db.pools.bulkDelete([...gonePools]);
      await db.collections.bulkDelete(goneCollections);
      return goneCollections.length + gonePools.size;
    },
  );
  await db.meta.put({ key: WINDOW_RECONCILE_META_KEY, value: startedAt });
  return removed;
}

/** The local collections of the window (collection_date on or after `since`) and their pools. */
async function windowRecords(ctx: SyncContext, since: string) {
  const { db } = ctx;
  const collections = await db.collections.where('collectionDate').aboveOrEqual(since).toArray();
  const pools = collections.length
    ? await db.pools
        .where('parentLocalId')
        .anyOf(collections.map((c) => c.localId))
        .toArray()
    : [];
  return { collections, pools };
}

/** Rows by their parent's localId. */
function byParent(rows: AnyRecordRow[]): Map<string, AnyRecordRow[]> {
  const out = new Map<string, AnyRecordRow[]>();
  for (const row of rows) {
    const siblings = out.get(row.parentLocalId!);
    if (siblings) siblings.push(row);
    else out.set(row.parentLocalId!, [row]);
  }
  return out;
}
