/**
 * The BFF's one reader of a records list page by page, by key: used by the exports
 * (exports/upstream-pages.ts), the site import and the reports (reports/report-list-read.ts, on the
 * report worker's thread). Plain functions over a page fetcher: no Fastify, no session, so the
 * worker can import it.
 */
import { encodeListQuery, type ListParams } from '#shared/list-query';
import { HttpError } from '../http/http-error';

/** A row as a list gives it: whatever the record holds, with its numeric id. */
export type KeyedRow = Record<string, unknown> & { id: number };

/**
 * Asks the upstream for one page of the list with this query string (no `?`). Its rows, or null
 * when the upstream refuses the query (400, 422: a parameter it does not take). Other failures
 * (401, 5xx) are the fetcher's to throw.
 */
export type PageFetch = (query: string) => Promise<readonly unknown[] | null>;

export type KeysetRead = {
  fetchPage: PageFetch;
  /** Rows asked per page; a page with fewer is the last. */
  pageSize: number;
  /** The list's own parameters, sent with every page (`populate`, `fields`, `type: 'tick'`). */
  params?: ListParams;
  /** Ids above this one are read (0: from the start). */
  afterId?: number;
  /** Ids up to this one, or null for no upper bound (a record added meanwhile is still read). */
  upTo?: number | null;
};

/**
 * The upstream did not honour the key: it refused `query[id][$gt]` (`refused`), or answered a page
 * whose ids do not rise past the key or leave its range (`ignored`; reading on would repeat or
 * skip records). The caller either reads by page number instead or says the list cannot be read
 * completely.
 */
export class KeyNotHonoured extends Error {
  constructor(readonly how: 'refused' | 'ignored') {
    super(`The upstream ${how} the list's key (query[id][$gt])`);
    this.name = 'KeyNotHonoured';
  }
}

/** The query string of the page after `afterId` (ids up to `upTo`), sorted by id. */
function keysetQuery(read: KeysetRead, afterId: number): string {
  const upTo = read.upTo ?? null;
  const id = upTo === null ? { $gt: afterId } : { $gt: afterId, $lte: upTo };
  const params = read.params ?? {};
  return encodeListQuery({
    page: 1,
    pageSize: read.pageSize,
    sort: 'id',
    ...params,
    query: { ...params.query, id },
  });
}

/**
 * The page of ids after `afterId` (up to `read.upTo`), checked: numeric ids, strictly rising, all
 * past the key and within the range. Throws KeyNotHonoured otherwise.
 */
export async function keysetPage(read: KeysetRead, afterId: number): Promise<KeyedRow[]> {
  const rows = await read.fetchPage(keysetQuery(read, afterId));
  if (rows === null) throw new KeyNotHonoured('refused');
  if (!risesPast(rows, afterId, read.upTo ?? null)) throw new KeyNotHonoured('ignored');
  return [...rows];
}

/**
 * The list's rows in (afterId, upTo], one page at a time, in id order, by key (`sort=id`,
 * `query[id][$gt]=<last id read>`) rather than by page number: a record retired or added while the
 * pages are read shifts no page, so no live record falls between two pages and none is read twice.
 *
 * Invariants:
 * 1. Every page yielded is checked by keysetPage; the first that is not honoured throws
 *    KeyNotHonoured before it is yielded.
 * 2. The next page is asked for as soon as this one's last id is known (one page ahead at most),
 *    so the upstream lists it while the caller handles this one: at most two pages in memory.
 * 3. A page shorter than `pageSize` ends the read; a caller that stops early (break, throw) leaves
 *    no unhandled rejection behind.
 */
export async function* keysetPages(read: KeysetRead): AsyncGenerator<KeyedRow[], void, undefined> {
  let next = keysetPage(read, read.afterId ?? 0);
  for (;;) {
    const rows = await next;
    const full = rows.length >= read.pageSize;
    if (full) {
      next = keysetPage(read, rows[rows.length - 1].id);
      // Awaited on the next turn, unless the caller stops first: never an unhandled rejection.
      next.catch(() => undefined);
    }
    if (rows.length > 0) yield rows;
    if (!full) return;
  }
}

/** True when every row has a numeric id, strictly rising, all in (afterId, upTo]. */
function risesPast(
  rows: readonly unknown[],
  afterId: number,
  upTo: number | null,
): rows is readonly KeyedRow[] {
  let previous = afterId;
  for (const row of rows) {
    const id = (row as { id?: unknown } | null)?.id;
    if (typeof id !== 'number' || id <= previous) return false;
    previous = id;
  }
  return upTo === null || previous <= upTo;
}

/**
 * The rows of a list answer: `{rows, count}` as the contract has it, or a bare array (tolerated,
 * as some public services answer). Anything else is the upstream failing (502), named by `list`.
 */
export function listRows(body: unknown, list: string): unknown[] {
  if (Array.isArray(body)) return body;
  const rows = (body as { rows?: unknown } | null | undefined)?.rows;
  if (Array.isArray(rows)) return rows;
  throw new HttpError(
    502,
    'upstream_unavailable',
    `The records service listed ${list} in an unknown shape`,
  );
}
