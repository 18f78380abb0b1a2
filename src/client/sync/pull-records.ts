import { ENTITY_PATHS, listedRows, refId, type Entity } from '../../shared';
import { request } from '../lib/http';
import { storePulled } from './pull-writer';
import type { PulledRow } from './store-pulled-rows';
import { recordTable, type AnyRecordRow } from './record-tables';
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

/**
 * When the local collections and pools of the pulled window were last checked against the
 * server's lists of active ids (ms).
 */
const WINDOW_RECONCILE_META_KEY = 'sync.reconcile.window';

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
  const since = new Date(ctx.now() - options.collectionDays * 86_400_000)
    .toISOString()
    .slice(0, 10);
  const dated = { 'query[collection_date][$gte]': since };
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
 * lookups (none without them).
 */
async function pullOtherPools(
  ctx: SyncContext,
  options: PullOptions,
  onProgress: (progress: PullProgress) => void,
  since: string,
): Promise<{ stored: number; added: number[] }> {
  const row = await ctx.db.lookups.get('lookups');
  if (!row) return { stored: 0, added: [] };
  const typeOf = new Map(row.document.species.map((s) => [s.id, s.type]));
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
        const type = species === null ? undefined : typeOf.get(species);
        if (type !== undefined) counted.add(type);
      }
    });
  let stored = 0;
  const added: number[] = [];
  for (const type of POOL_TYPES) {
    if (type === 'mosquito' || !counted.has(type)) continue;
    const dated = { 'query[collection_date][$gte]': since };
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
  filter: Record<string, string>,
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
  const params: Record<string, string> = anyDate ? {} : { ...filter };
  if (since) params['query[updated][$gt]'] = since;
  if (type !== null) params.type = type;
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
      // Of a list at any date, the window and what the tablet holds (the filtered list as sent).
      const written = await storePulled(ctx.db, ctx.now(), entity, rows, anyDate ? window : null);
      stored += written.stored;
      for (const id of written.added) added.push(id);
      for (const id of written.held ?? []) held.push(id);
    });
    // Awaited below (or by the next flush); meanwhile a failure must not count as unhandled.
    storing.catch(() => undefined);
    return before;
  };
  const walk = await eachPage(ctx, entity, params, options.pageSize, async (rows, count) => {
    for (const row of rows) {
      batch.push(row);
      if (typeof row.id === 'number') listed.add(row.id);
      if (typeof row.id === 'number') seen.add(row.id);
    }
    received += rows.length;
    maxUpdated = newestUpdated(rows, maxUpdated);
    onProgress({ entity, received, total: count });
    if (batch.length >= batchSize) await flush();
  });
  if (batch.length > 0) void flush();
  // The mark moves on only once every batch is stored, and the rows held back are noted.
  await storing;
  await settleHeld(ctx, entity, seen, held, options.pageSize, type);
  const next: PullMark = { maxUpdated, pulledAt: startedAt, settledBefore: walk.settledBefore };
  await ctx.db.meta.put({ key, value: next });
  const whole = !mark && walk.complete;
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

/** Server ids of the rows a pull held back (see `settleHeld`), by entity (and pool type). */
const HELD_META_KEY = (entity: Entity, type: string | null) =>
  `sync.pull.held.${entity}${type === null ? '' : `.${type}`}`;

/** Ids per request for held rows asked for again: keeps the query string short. */
const HELD_IDS_PER_REQUEST = 100;

/**
 * Rows a pull held back (the technician's change of the record was waiting: their edit wins
 * locally) while the pull's mark moved past them. When that change leaves without a write on the
 * server (discarded, or a conflict settled with the server's values), no later pull would list
 * the record again, and the tablet would show the version it had before, for good. So their ids
 * are kept in `meta` until a pull stores the record: once a held row has nothing waiting, and
 * this pull did not bring it (`seen`; the pull after a sent edit lists the record anyway), it is
 * asked for again by id, in one request per hundred (none while nothing is held). A row no longer
 * on the tablet, or no longer listed, is forgotten (deletions are the reconciliations' work).
 */
async function settleHeld(
  ctx: SyncContext,
  entity: Entity,
  seen: ReadonlySet<number>,
  heldNow: readonly number[],
  pageSize: number,
  /** The pools' species type, for pools listed apart (see `pullOtherPools`). */
  type: string | null = null,
): Promise<void> {
  const { db } = ctx;
  const key = HELD_META_KEY(entity, type);
  const before = ((await db.meta.get(key))?.value as number[] | undefined) ?? [];
  const stillHeld = new Set(heldNow);
  const held = new Set([...before.filter((id) => !seen.has(id)), ...heldNow]);
  if (held.size > 0 || before.length > 0) await db.meta.put({ key, value: [...held] });
  if (held.size === stillHeld.size) return;
  const table = recordTable(db, entity);
  const rows = await table
    .where('serverId')
    .anyOf([...held])
    .toArray();
  const busy = new Set(
    (
      await db.outbox
        .where('localId')
        .anyOf(rows.map((r) => r.localId))
        .toArray()
    ).map((e) => e.localId),
  );
  const free = rows
    .filter((r) => !stillHeld.has(r.serverId!) && r.syncState === 'synced' && !busy.has(r.localId))
    .map((r) => r.serverId!);
  const freed = new Set(free);
  const kept = new Set(rows.filter((r) => !freed.has(r.serverId!)).map((r) => r.serverId!));
  for (let i = 0; i < free.length; i += HELD_IDS_PER_REQUEST) {
    const filter: Record<string, string> = type === null ? {} : { type };
    free
      .slice(i, i + HELD_IDS_PER_REQUEST)
      .forEach((id, k) => (filter[`query[id][$in][${k}]`] = String(id)));
    await eachPage(ctx, entity, filter, pageSize, async (listed) => {
      // Held again when the technician saved meanwhile.
      const written = await storePulled(db, ctx.now(), entity, listed);
      for (const id of written.held ?? []) kept.add(id);
    });
  }
  await db.meta.put({ key, value: [...kept] });
}

/** Species types whose pools the server lists apart (`type`, contract §4); mosquito by default. */
const POOL_TYPES = ['mosquito', 'tick', 'nontick'] as const;

/**
 * Every id of a list under `filter` (`fields[]=id`: a few bytes a row), or null when the listing
 * may lack some (the upstream repeated a full page).
 */
async function activeIds(
  ctx: SyncContext,
  entity: Entity,
  filter: Record<string, string>,
  pageSize: number,
): Promise<Set<number> | null> {
  const ids = new Set<number>();
  const walk = await eachPage(ctx, entity, { 'fields[]': 'id', ...filter }, pageSize, (rows) => {
    for (const row of rows) if (typeof row.id === 'number') ids.add(row.id);
    return Promise.resolve();
  });
  return walk.complete ? ids : null;
}

/**
 * The species type of a pool's species id, from the stored lookups; with none stored, mosquito
 * (the pools the pull lists: a tablet without lookups has made none of its own).
 */
async function speciesTypes(ctx: SyncContext): Promise<(species: number) => string | undefined> {
  const row = await ctx.db.lookups.get('lookups');
  if (!row) return () => 'mosquito';
  const types = new Map(row.document.species.map((s) => [s.id, s.type]));
  return (species) => types.get(species);
}

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
async function reconcileWindow(
  ctx: SyncContext,
  options: PullOptions,
  since: string,
  listedCollections: Set<number> | null,
  listedPools: Set<number> | null,
): Promise<number> {
  const { db } = ctx;
  const last = (await db.meta.get(WINDOW_RECONCILE_META_KEY))?.value;
  const due = typeof last !== 'number' || ctx.now() - last >= options.reconcileEveryMs;
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
  const windowCollections = await db.collections
    .where('collectionDate')
    .aboveOrEqual(since)
    .toArray();
  const windowPools = windowCollections.length
    ? await db.pools
        .where('parentLocalId')
        .anyOf(windowCollections.map((c) => c.localId))
        .toArray()
    : [];
  let activeCollections = listedCollections;
  if (!activeCollections && due && windowCollections.some(synced)) {
    const dated = { 'query[collection_date][$gte]': since };
    activeCollections = await activeIds(ctx, 'collection', dated, options.pageSize);
  }
  const activePools = new Map<string, Set<number> | null>();
  if (listedPools) activePools.set('mosquito', listedPools);
  if (due) {
    for (const type of POOL_TYPES) {
      if (activePools.has(type) || !windowPools.some((p) => synced(p) && typeOf(p) === type))
        continue;
      const filter: Record<string, string> = { 'query[collection_date][$gte]': since };
      // Mosquito pools as the pull lists them (no `type`: the default, and any upstream takes it).
      if (type !== 'mosquito') filter.type = type;
      activePools.set(type, await activeIds(ctx, 'pool', filter, options.pageSize));
    }
  }

  const removed = await db.transaction(
    'rw',
    [db.collections, db.pools, db.poolTests, db.outbox],
    async () => {
      // Read again in this transaction: the technician may have saved since.
      const collections = await db.collections
        .where('collectionDate')
        .aboveOrEqual(since)
        .toArray();
      const pools = collections.length
        ? await db.pools
            .where('parentLocalId')
            .anyOf(collections.map((c) => c.localId))
            .toArray()
        : [];
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
      const testsOf = new Map<string, AnyRecordRow[]>();
      for (const t of tests)
        testsOf.set(t.parentLocalId!, [...(testsOf.get(t.parentLocalId!) ?? []), t]);
      const poolsOf = new Map<string, AnyRecordRow[]>();
      for (const p of pools)
        poolsOf.set(p.parentLocalId!, [...(poolsOf.get(p.parentLocalId!) ?? []), p]);
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
