import { ENTITY_PATHS, listedRows, refId, type Entity } from '../../shared';
import { request } from '../lib/http';
import { storePulled } from './pull-writer';
import type { PulledRow } from './store-pulled-rows';
import type { SyncContext } from './sync-context';
import { SyncError, classify } from './sync-error';
import { DEFAULT_PULL, type PullOptions } from './pull-options';
import { changedSince, earlierSettled, settledBeforeOf, type PullMark } from './pull-mark';

const PULL_META_KEY: Record<Entity, string> = {
  site: 'sync.pull.site',
  collection: 'sync.pull.collection',
  pool: 'sync.pull.pool',
  poolTest: 'sync.pull.poolTest',
};

/** When the local sites were last checked against the server's list of active site ids (ms). */
const SITE_RECONCILE_META_KEY = 'sync.reconcile.site';

/** How far the pull of one entity has come: rows received of the list's `count` (when known). */
export type PullProgress = { entity: Entity; received: number; total: number | null };

/**
 * Largest batch of received rows written in one transaction. Batches start at one page and
 * double: every commit makes live queries on the table (the Sites list and map) re-read all of
 * it, so doubling batches keep those re-reads to a few over a first pull of 20,000 sites (about
 * twice the table read in all) instead of one per page (the table read twenty times over).
 */
const MAX_BATCH = 16_000;

/** Pages of a list requested ahead of the one being stored, when the list's count says they exist. */
const PAGES_AHEAD = 3;

/** Pool ids per pool test request: keeps the query string short. */
const POOL_IDS_PER_REQUEST = 100;

type Row = PulledRow;

/**
 * Brings the agency's sites, the last `collectionDays` days of collections, their pools and the
 * tests of those pools into Dexie. Incremental after the first pull: only rows with `updated`
 * after the last pull's newest, or those a write committing late may have stamped (pull-mark.ts).
 * At most once per `reconcileEveryMs`, removes local sites the
 * server no longer lists (deleted sites leave lists, so the incremental pull never hears of them).
 * Throws a SyncError when a page cannot be fetched (what was stored before stays stored).
 */
export async function pullRecords(
  ctx: SyncContext,
  options: PullOptions = DEFAULT_PULL,
  onProgress: (progress: PullProgress) => void = () => undefined,
): Promise<{ site: number; collection: number; pool: number; poolTest: number; removed: number }> {
  // Parents first: a pulled child finds its parent's localId.
  const site = await pullEntity(ctx, 'site', {}, options, onProgress);
  const since = new Date(ctx.now() - options.collectionDays * 86_400_000)
    .toISOString()
    .slice(0, 10);
  const dated = { 'query[collection_date][$gte]': since };
  const collection = await pullEntity(ctx, 'collection', dated, options, onProgress);
  const pool = await unlessMissing(pullEntity(ctx, 'pool', dated, options, onProgress), {
    stored: 0,
    added: [],
    listed: null,
  });
  const poolTest = await unlessMissing(pullPoolTests(ctx, options, pool.added), 0);
  const removed = await reconcileSites(ctx, options, site.listed);
  return {
    site: site.stored,
    collection: collection.stored,
    pool: pool.stored,
    poolTest,
    removed,
  };
}

/** Statuses of an upstream that has no such list at all (a stand-in without pools). */
const MISSING_ENDPOINT = new Set([404, 405, 501]);

/**
 * The pull of an optional list: an upstream without that endpoint must not stop the pull of
 * sites and collections, which are already stored by then. Any other error propagates.
 */
async function unlessMissing<T>(pull: Promise<T>, none: T): Promise<T> {
  try {
    return await pull;
  } catch (err) {
    if (err instanceof SyncError && err.status !== null && MISSING_ENDPOINT.has(err.status))
      return none;
    throw err;
  }
}

/**
 * Tests of the pools on this tablet. For pools already known, one incremental list of the tests
 * changed since the last pull, whatever the number of pools (a request per hundred pools would
 * cost a technician on one bar of signal a round trip each); tests of pools the tablet does not
 * hold are not stored. For pools this pull added (and on the first pull), their tests by pool id,
 * as those may be older than the mark.
 */
async function pullPoolTests(
  ctx: SyncContext,
  options: PullOptions,
  addedPools: number[],
): Promise<number> {
  const local = new Set(
    (await ctx.db.pools.toArray()).map((p) => p.serverId).filter((id): id is number => id !== null),
  );
  const added = new Set(addedPools);
  const key = PULL_META_KEY.poolTest;
  const mark = (await ctx.db.meta.get(key))?.value as PullMark | undefined;
  const startedAt = ctx.now();
  let maxUpdated = mark?.maxUpdated ?? null;
  let settledBefore: number | null = null;
  let stored = 0;
  const store = async (rows: Row[]) => {
    const mine = rows.filter((r) => {
      const pool = refId(r.pool as number | { id: number } | null | undefined);
      return pool !== null && local.has(pool);
    });
    stored += (await storePulled(ctx.db, ctx.now(), 'poolTest', mine)).stored;
    maxUpdated = newestUpdated(rows, maxUpdated);
  };
  // After a first pull, known pools need only what changed (everything, while no test was seen).
  const byPool = [...(mark ? added : local)];
  if (mark) {
    const since = changedSince(mark);
    const changed: Record<string, string> = since ? { 'query[updated][$gt]': since } : {};
    const walk = await eachPage(ctx, 'poolTest', changed, options.pageSize, store);
    settledBefore = earlierSettled(settledBefore, walk.settledBefore);
  }
  for (let i = 0; i < byPool.length; i += POOL_IDS_PER_REQUEST) {
    const filter: Record<string, string> = {};
    byPool
      .slice(i, i + POOL_IDS_PER_REQUEST)
      .forEach((id, k) => (filter[`query[pool][$in][${k}]`] = String(id)));
    const walk = await eachPage(ctx, 'poolTest', filter, options.pageSize, store);
    settledBefore = earlierSettled(settledBefore, walk.settledBefore);
  }
  await ctx.db.meta.put({
    key,
    value: { maxUpdated, pulledAt: startedAt, settledBefore } satisfies PullMark,
  });
  return stored;
}

/**
 * Pulls one list into its table. `listed` is the id of every row the server listed, when this
 * pull listed them all (no mark yet, no filter, and the walk was complete), else null.
 */
async function pullEntity(
  ctx: SyncContext,
  entity: 'site' | 'collection' | 'pool',
  filter: Record<string, string>,
  options: PullOptions,
  onProgress: (progress: PullProgress) => void,
): Promise<{ stored: number; added: number[]; listed: Set<number> | null }> {
  const key = PULL_META_KEY[entity];
  const mark = (await ctx.db.meta.get(key))?.value as PullMark | undefined;
  const startedAt = ctx.now();
  let maxUpdated = mark?.maxUpdated ?? null;
  let stored = 0;
  let received = 0;
  const added: number[] = [];
  const listed = new Set<number>();
  const params = { ...filter };
  const since = changedSince(mark);
  if (since) params['query[updated][$gt]'] = since;
  let batch: Row[] = [];
  let batchSize = options.pageSize;
  // Batches are stored while the next pages download: storing (IndexedDB's work) and downloading
  // overlap instead of adding up. Batches still commit one after another, in page order; a new
  // batch waits for the one before it, so at most two are held at once.
  let storing: Promise<void> = Promise.resolve();
  const flush = (): Promise<void> => {
    const rows = batch;
    batch = [];
    batchSize = Math.min(batchSize * 2, MAX_BATCH);
    const before = storing;
    storing = before.then(async () => {
      const written = await storePulled(ctx.db, ctx.now(), entity, rows);
      stored += written.stored;
      for (const id of written.added) added.push(id);
    });
    // Awaited below (or by the next flush); meanwhile a failure must not count as unhandled.
    storing.catch(() => undefined);
    return before;
  };
  const walk = await eachPage(ctx, entity, params, options.pageSize, async (rows, count) => {
    for (const row of rows) {
      batch.push(row);
      if (typeof row.id === 'number') listed.add(row.id);
    }
    received += rows.length;
    maxUpdated = newestUpdated(rows, maxUpdated);
    onProgress({ entity, received, total: count });
    if (batch.length >= batchSize) await flush();
  });
  if (batch.length > 0) void flush();
  // The mark moves on only once every batch is stored.
  await storing;
  const next: PullMark = { maxUpdated, pulledAt: startedAt, settledBefore: walk.settledBefore };
  await ctx.db.meta.put({ key, value: next });
  const whole = !mark && Object.keys(filter).length === 0 && walk.complete;
  return { stored, added, listed: whole ? listed : null };
}

function newestUpdated(rows: Row[], current: string | null): string | null {
  let newest = current;
  for (const row of rows) {
    if (typeof row.updated === 'string' && (newest === null || row.updated > newest))
      newest = row.updated;
  }
  return newest;
}

/**
 * Walks the pages of a list (sorted by id), handing each page's rows not seen before to `onPage`
 * with the list's `count` (null when the upstream gives none). Stops at a short page, at `count`,
 * or at a page that brings no new id: an upstream that ignores `page` answers the same rows again,
 * and without `count` nothing else would end the loop. Accepts `{rows, count?}` or a bare array.
 * `complete` is false when the list may hold rows the upstream never sent (it repeated a full
 * page). `settledBefore`: from the first page's `Date` (see pull-mark.ts). Later pages are requested while `onPage` stores this one, up to `PAGES_AHEAD` when
 * `count` says they exist (one otherwise): the upstream's time and the tablet's overlap instead
 * of adding up.
 */
async function eachPage(
  ctx: SyncContext,
  entity: Entity,
  filter: Record<string, string>,
  pageSize: number,
  onPage: (rows: Row[], count: number | null) => Promise<void>,
): Promise<{ complete: boolean; settledBefore: number | null }> {
  const seen = new Set<unknown>();
  const requested = new Map<number, ReturnType<typeof fetchList>>();
  const request = (page: number) => {
    if (requested.has(page)) return;
    const params = new URLSearchParams({
      pageSize: String(pageSize),
      page: String(page),
      sort: 'id',
      ...filter,
    });
    const pending = fetchList(ctx, entity, params);
    // Awaited in turn; a page asked for ahead and never awaited must not count as unhandled.
    pending.catch(() => undefined);
    requested.set(page, pending);
  };
  request(1);
  let settledBefore: number | null = null;
  for (let page = 1; ; page += 1) {
    request(page);
    const { rows, count, date } = await requested.get(page)!;
    if (page === 1) settledBefore = settledBeforeOf(date);
    requested.delete(page);
    const fresh = rows.filter((row) => !seen.has(row.id));
    for (const row of fresh) seen.add(row.id);
    let end: { complete: boolean } | null = null;
    if (rows.length < pageSize || (typeof count === 'number' && page * pageSize >= count))
      end = { complete: true };
    // A full page repeated: the upstream ignores `page`, so rows past the first page may exist
    // that it will never send. More rows than asked for: it ignores paging and sent them all.
    else if (fresh.length === 0) end = { complete: rows.length > pageSize };
    if (!end) {
      const lastPage = typeof count === 'number' ? Math.ceil(count / pageSize) : page + 1;
      for (let p = page + 1; p <= Math.min(page + PAGES_AHEAD, lastPage); p += 1) request(p);
    }
    if (fresh.length > 0) await onPage(fresh, count);
    if (end) return { ...end, settledBefore };
  }
}

async function fetchList(
  ctx: SyncContext,
  entity: Entity,
  params: URLSearchParams,
): Promise<{ rows: Row[]; count: number | null; date: string | null }> {
  let result;
  try {
    result = await request<unknown>(
      `${ctx.baseUrl}/api/v1${ENTITY_PATHS[entity]}?${params.toString()}`,
      { headers: ctx.headers, timeoutMs: ctx.timeoutMs },
    );
  } catch (err) {
    throw classify(err) as SyncError;
  }
  const error = classify(result);
  if (error || !result.ok) throw error ?? new SyncError('server', result.status, null);
  // A body that is no list counts as an empty page (the walk then ends).
  const listed = listedRows(result.body) ?? { rows: [], count: null };
  return { ...listed, date: result.headers.get('Date') };
}

/**
 * Removes local sites the server no longer lists (deleted), at most once per `reconcileEveryMs`.
 * Only a site with nothing of the user's at stake goes: synced, no outbox entry, and no child
 * collection with a local change. Its synced children stay (the server keeps them too).
 * `listed`: every active site id, when this pull's own walk of the sites listed them all (the
 * first pull); the check then costs no second listing.
 */
async function reconcileSites(
  ctx: SyncContext,
  options: PullOptions,
  listed: Set<number> | null,
): Promise<number> {
  const last = (await ctx.db.meta.get(SITE_RECONCILE_META_KEY))?.value;
  if (!listed && typeof last === 'number' && ctx.now() - last < options.reconcileEveryMs) return 0;
  const startedAt = ctx.now();
  let active: Set<unknown> = listed ?? new Set();
  if (!listed) {
    const ids = new Set<unknown>();
    const listing = await eachPage(
      ctx,
      'site',
      { 'fields[]': 'id' },
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
