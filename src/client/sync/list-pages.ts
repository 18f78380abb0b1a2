import { ENTITY, type Entity } from '#shared/entities';
import { encodeListQuery, type ListParams } from '#shared/list-query';
import { request } from '../lib/http';
import { nextTask } from '../lib/next-task';
import { readListBody } from './list-body';
import { settledBeforeOf } from './pull-mark';
import type { PulledRow } from './store-pulled-rows';
import type { SyncContext } from './sync-context';
import { SyncError, classify } from './sync-error';

type Row = PulledRow;

/** What a walk needs of a row: its id (rows are told apart by it). */
export type WalkedRow = { id?: unknown };

/**
 * Reads a page's body (the JSON text as sent) into rows and the list's count: here, or where the
 * pull writer worker holds the rows and hands back what the walk needs (pull-writer.ts).
 */
export type PageReader<R extends WalkedRow> = (
  text: string,
) => Promise<{ rows: R[]; count: number | null }>;

/** Reads a page's body on this thread, into whole rows. */
export const readPageHere: PageReader<Row> = (text) => Promise.resolve(readListBody(text));

/** Pages of a list requested ahead of the one being stored, when the list's count says they exist. */
const PAGES_AHEAD = 3;

/**
 * Walks the pages of a list (sorted by id), handing each page's rows not seen before to `onPage`
 * with the list's `count` (null when the upstream gives none). Stops at a short page, at `count`,
 * or at a page that brings no new id: an upstream that ignores `page` answers the same rows again,
 * and without `count` nothing else would end the loop. Accepts `{rows, count?}` or a bare array.
 * `complete` is false when the list may hold rows the upstream never sent (it repeated a full
 * page). `settledBefore`: from the first page's `Date` (see pull-mark.ts). Later pages are
 * requested while `onPage` stores this one, up to `PAGES_AHEAD` when `count` says they exist (one
 * otherwise): the upstream's time and the tablet's overlap instead of adding up.
 */
export async function eachPage<R extends WalkedRow = Row>(
  ctx: SyncContext,
  entity: Entity,
  filter: ListParams,
  pageSize: number,
  onPage: (rows: R[], count: number | null) => Promise<void>,
  /** Without it, pages are read here into whole rows (R is then Row). */
  readPage: PageReader<R> = readPageHere as unknown as PageReader<R>,
): Promise<{ complete: boolean; settledBefore: number | null }> {
  const seen = new Set<unknown>();
  const requested = new Map<number, Promise<ListPage<R>>>();
  const request = (page: number) => {
    if (requested.has(page)) return;
    const params = encodeListQuery({ pageSize, page, sort: 'id', ...filter });
    const pending = fetchList(ctx, entity, params, readPage);
    // Awaited in turn; a page asked for ahead and never awaited must not count as unhandled.
    pending.catch(() => undefined);
    requested.set(page, pending);
  };
  request(1);
  let settledBefore: number | null = null;
  for (let page = 1; ; page += 1) {
    request(page);
    const { rows, count, date } = await requested.get(page)!;
    // The page's rows are handled in a task of their own, not in the one that parsed its body
    // (a page asked for ahead has usually arrived: without this, parsing and handling of page
    // after page ran on in one task, and a pull of 20 pages of 1,000 sites held the tablet for
    // tasks of ~120 ms while an open form's typing waited behind them).
    await nextTask();
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

/** A page not asked for: the engine stopped while its pull was under way. */
class EngineStopped extends Error {
  constructor() {
    super('The sync engine stopped: no further page is asked for');
    this.name = 'EngineStopped';
  }
}

type ListPage<R> = { rows: R[]; count: number | null; date: string | null };

async function fetchList<R extends WalkedRow>(
  ctx: SyncContext,
  entity: Entity,
  /** The encoded query string. */
  params: string,
  readPage: PageReader<R>,
): Promise<ListPage<R>> {
  // Not sent once the engine stopped; the pull fails, which a stopped engine does not report.
  if (ctx.stopped()) throw new EngineStopped();
  let result;
  try {
    result = await request<string>(`${ctx.baseUrl}/api${ENTITY[entity].path}?${params}`, {
      headers: ctx.headers,
      timeoutMs: ctx.timeoutMs,
      bodyAs: 'text',
    });
  } catch (err) {
    throw classify(err) as SyncError;
  }
  const error = classify(result);
  if (error || !result.ok) throw error ?? new SyncError('server', result.status, null);
  return { ...(await readPage(result.body)), date: result.headers.get('Date') };
}

/**
 * Every id of a list under `filter` (`fields[]=id`: a few bytes a row), or null when the listing
 * may lack some (the upstream repeated a full page).
 */
export async function activeIds(
  ctx: SyncContext,
  entity: Entity,
  filter: ListParams,
  pageSize: number,
): Promise<Set<number> | null> {
  const ids = new Set<number>();
  const walk = await eachPage(ctx, entity, { fields: ['id'], ...filter }, pageSize, (rows) => {
    for (const row of rows) if (typeof row.id === 'number') ids.add(row.id);
    return Promise.resolve();
  });
  return walk.complete ? ids : null;
}
