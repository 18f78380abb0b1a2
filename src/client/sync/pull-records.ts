import { refId, type Entity } from '#shared';
import type { ListParams } from '#shared/list-query';
import { eachPage } from './list-pages';
import { POOL_TYPES, speciesTypes } from './pool-types';
import { keepPulledSites, listRowsFor, storePulled, type ListedRow } from './pull-writer';
import type { PulledRow } from './store-pulled-rows';
import type { SyncContext } from './sync-context';
import { SyncError } from './sync-error';
import { DEFAULT_PULL, type PullOptions } from './pull-options';
import { changedSince, earlierSettled, type PullMark } from './pull-mark';
import { reconcileSites } from './reconcile-sites';
import { reconcileWindow } from './reconcile-window';
import { settleHeld } from './settle-held';

const PULL_META_KEY: Record<Entity, string> = {
  site: 'sync.pull.site',
  collection: 'sync.pull.collection',
  pool: 'sync.pull.pool',
  poolTest: 'sync.pull.poolTest',
};

/** How far the pull of one entity has come: rows received of the list's `count` (when known). */
export type PullProgress = { entity: Entity; received: number; total: number | null };

/**
 * Largest batch of received rows written in one transaction. Batches start at one page and
 * double: every commit makes live queries on the table (the Sites list and map) re-read all of
 * it, so doubling batches keep those re-reads to a few over a first pull of 20,000 sites (about
 * twice the table read in all) instead of one per page (the table read twenty times over).
 */
const MAX_BATCH = 16_000;

/** Pool ids per pool test request: keeps the query string short. */
const POOL_IDS_PER_REQUEST = 100;

type Row = PulledRow;

/**
 * Brings the agency's sites, the last `collectionDays` days of collections, their pools and the
 * tests of those pools into Dexie. Incremental after the first pull: only rows with `updated`
 * after the last pull's newest, or those a write committing late may have stamped (pull-mark.ts),
 * at any date for collections and pools (kept: the window, and what the tablet holds). Pools of
 * ticks and other arthropods come from their own lists, while the tablet holds their collections.
 * At most once per `reconcileEveryMs`, removes local sites, and collections and pools of the
 * window, that the server no longer lists (deleted records leave lists, so the incremental pull
 * never hears of them). Rows held back by a local change are asked for again once it is gone.
 * Throws a SyncError when a page cannot be fetched (what was stored before stays stored).
 */
export async function pullRecords(
  ctx: SyncContext,
  options: PullOptions = DEFAULT_PULL,
  onProgress: (progress: PullProgress) => void = () => undefined,
): Promise<{ site: number; collection: number; pool: number; poolTest: number; removed: number }> {
  // Parents first: a pulled child finds its parent's localId.
  const site = await pullEntity(ctx, 'site', {}, options, onProgress);
  keepPulledSites(ctx.db);
  const since = new Date(ctx.now() - options.collectionDays * 86_400_000)
    .toISOString()
    .slice(0, 10);
  const dated = { query: { collection_date: { $gte: since } } };
  const collection = await pullEntity(ctx, 'collection', dated, options, onProgress, {
    window: since,
  });
  const pool = await unlessMissing(
    pullEntity(ctx, 'pool', dated, options, onProgress, { window: since }),
    { stored: 0, added: [], listed: null },
  );
  const others = await unlessMissing(pullOtherPools(ctx, options, onProgress, since), {
    stored: 0,
    added: [],
  });
  const poolTest = await unlessMissing(
    pullPoolTests(ctx, options, [...pool.added, ...others.added]),
    0,
  );
  const removed =
    (await reconcileSites(ctx, options, site.listed)) +
    (await unlessMissing(reconcileWindow(ctx, options, since, collection.listed, pool.listed), 0));
  return {
    site: site.stored,
    collection: collection.stored,
    pool: pool.stored + others.stored,
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
 * Pools of the species types other than mosquito (ticks, other arthropods): the server lists
 * them apart (`type`, contract §4), each type with its own mark. A type's list is asked for only
 * while the tablet holds a collection of the window that counted that type (a pool draws on its
 * collection's counts, so no other collection has such pools): one request more per pull for
 * an agency that pools ticks, none for one that does not. Species types come from the stored
 * lookups (all mosquito without them: no other list is asked for).
 */
async function pullOtherPools(
  ctx: SyncContext,
  options: PullOptions,
  onProgress: (progress: PullProgress) => void,
  since: string,
): Promise<{ stored: number; added: number[] }> {
  const typeOf = await speciesTypes(ctx);
  const counted = new Set<string>();
  await ctx.db.collections
    .where('collectionDate')
    .aboveOrEqual(since)
    .each((c) => {
      const rows = Array.isArray(c.data.arthropods) ? (c.data.arthropods as unknown[]) : [];
      for (const r of rows) {
        const species = refId(
          (r as { species?: number | { id: number } | null } | null)?.species ?? null,
        );
        const type = species === null ? undefined : typeOf(species);
        if (type !== undefined) counted.add(type);
      }
    });
  let stored = 0;
  const added: number[] = [];
  for (const type of POOL_TYPES) {
    if (type === 'mosquito' || !counted.has(type)) continue;
    const dated = { query: { collection_date: { $gte: since } } };
    const pulled = await pullEntity(ctx, 'pool', dated, options, onProgress, {
      window: since,
      type,
    });
    stored += pulled.stored;
    added.push(...pulled.added);
  }
  return { stored, added };
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
  const seen = new Set<number>();
  const held: number[] = [];
  // Tests the tablet holds are stored wherever they now are: one moved to a pool the tablet does
  // not hold must leave the pool it was under here.
  const tests = new Set((await ctx.db.poolTests.orderBy('serverId').keys()) as number[]);
  const store = async (rows: Row[]) => {
    const mine = rows.filter((r) => {
      const pool = refId(r.pool as number | { id: number } | null | undefined);
      return (pool !== null && local.has(pool)) || (typeof r.id === 'number' && tests.has(r.id));
    });
    const written = await storePulled(ctx.db, ctx.now(), 'poolTest', mine);
    stored += written.stored;
    for (const id of written.held ?? []) held.push(id);
    for (const row of mine) if (typeof row.id === 'number') seen.add(row.id);
    maxUpdated = newestUpdated(rows, maxUpdated);
  };
  // After a first pull, known pools need only what changed (everything, while no test was seen).
  const byPool = [...(mark ? added : local)];
  if (mark) {
    const since = changedSince(mark);
    const changed = since ? { query: { updated: { $gt: since } } } : {};
    const walk = await eachPage(ctx, 'poolTest', changed, options.pageSize, store);
    settledBefore = earlierSettled(settledBefore, walk.settledBefore);
  }
  for (let i = 0; i < byPool.length; i += POOL_IDS_PER_REQUEST) {
    const filter = { query: { pool: { $in: byPool.slice(i, i + POOL_IDS_PER_REQUEST) } } };
    const walk = await eachPage(ctx, 'poolTest', filter, options.pageSize, store);
    settledBefore = earlierSettled(settledBefore, walk.settledBefore);
  }
  await settleHeld(ctx, 'poolTest', seen, held, options.pageSize);
  await ctx.db.meta.put({
    key,
    value: { maxUpdated, pulledAt: startedAt, settledBefore } satisfies PullMark,
  });
  return stored;
}

/**
 * Pulls one list into its table. `listed` is the id of every row the server listed under
 * `filter`, when this pull listed them all (no mark yet, and the walk was complete), else null.
 * `window`: the first day of the pulled window, for lists filtered by `collection_date`. An
 * incremental pull of such a list asks for what changed at any date, and stores of it the rows in
 * the window and those the tablet holds: a record re-dated out of the window, a pool moved to an
 * older collection, or a record the window has passed edited in the office, would otherwise
 * never reach the tablet again (same one request when nothing changed).
 */
async function pullEntity(
  ctx: SyncContext,
  entity: 'site' | 'collection' | 'pool',
  filter: ListParams,
  options: PullOptions,
  onProgress: (progress: PullProgress) => void,
  {
    window = null,
    type = null,
  }: {
    window?: string | null;
    /** A species type of pools other than the default (its own list and mark). */
    type?: string | null;
  } = {},
): Promise<{ stored: number; added: number[]; listed: Set<number> | null }> {
  const key = type === null ? PULL_META_KEY[entity] : `${PULL_META_KEY[entity]}.${type}`;
  const mark = (await ctx.db.meta.get(key))?.value as PullMark | undefined;
  const startedAt = ctx.now();
  let maxUpdated = mark?.maxUpdated ?? null;
  let stored = 0;
  let received = 0;
  const added: number[] = [];
  const listed = new Set<number>();
  const seen = new Set<number>();
  const held: number[] = [];
  const since = changedSince(mark);
  // With a mark, only what changed since, at any date (see `window`); without one, the window.
  const anyDate = since !== null && window !== null;
  const kept = anyDate ? {} : filter;
  const params: ListParams = {
    ...kept,
    query: { ...kept.query, ...(since ? { updated: { $gt: since } } : {}) },
    ...(type !== null ? { type } : {}),
  };
  // Where the pages are read and the batches stored: the pull writer worker where there is one.
  const list = listRowsFor(ctx.db, entity);
  let batch: ListedRow[] = [];
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
      // Of a list at any date, the window and what the tablet holds (the filtered list as sent).
      const written = await list.store(rows, ctx.now(), anyDate ? window : null);
      stored += written.stored;
      for (const id of written.added) added.push(id);
      for (const id of written.held ?? []) held.push(id);
    });
    // Awaited below (or by the next flush); meanwhile a failure must not count as unhandled.
    storing.catch(() => undefined);
    return before;
  };
  let walk;
  try {
    walk = await eachPage(
      ctx,
      entity,
      params,
      options.pageSize,
      async (rows, count) => {
        for (const row of rows) {
          batch.push(row);
          if (typeof row.id === 'number') listed.add(row.id);
          if (typeof row.id === 'number') seen.add(row.id);
        }
        received += rows.length;
        maxUpdated = newestUpdated(rows, maxUpdated);
        onProgress({ entity, received, total: count });
        if (batch.length >= batchSize) await flush();
      },
      list.readPage,
    );
    if (batch.length > 0) void flush();
    // The mark moves on only once every batch is stored, and the rows held back are noted.
    await storing;
  } finally {
    // A failed walk: the batch being stored ends first (what it commits is valid), then the
    // pages read and never stored are let go (as are pages that brought nothing new).
    await storing.catch(() => undefined);
    list.close();
  }
  await settleHeld(ctx, entity, seen, held, options.pageSize, type);
  const next: PullMark = { maxUpdated, pulledAt: startedAt, settledBefore: walk.settledBefore };
  await ctx.db.meta.put({ key, value: next });
  const whole = !mark && walk.complete;
  return { stored, added, listed: whole ? listed : null };
}

function newestUpdated(rows: ListedRow[], current: string | null): string | null {
  let newest = current;
  for (const row of rows) {
    if (typeof row.updated === 'string' && (newest === null || row.updated > newest))
      newest = row.updated;
  }
  return newest;
}
