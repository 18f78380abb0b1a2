/**
 * Reading an agency's collections and pools from the upstream, page by page, for the reports.
 * Runs on the report worker's thread (report-worker-main.ts): the pages' JSON parsing and schema
 * checks never hold the BFF's event loop. Talks to the upstream over its own connection pool.
 */
import type { z } from 'zod';
import {
  reportCollection,
  reportPool,
  type ReportCollection,
  type ReportPool,
} from '#shared/reports';
import { ENTITY } from '#shared/entities';
import { encodeListQuery } from '#shared/list-query';
import {
  KeyNotHonoured,
  keysetPage,
  keysetPages,
  listRows,
  type KeysetRead,
} from '../keyset-pages';
import { HttpError } from '../../http/http-error';
import { reauthRequired } from '../session-errors';
import { parseJson } from '../parse-json';
import type { UpstreamClient } from '../upstream-client';
import type { PageSlots } from './page-slots';

/** Rows asked per page: the contract's maximum. */
const REPORT_PAGE_SIZE = 1000;
/**
 * Bound on pages per list (500k rows), so an upstream that pages forever cannot hold a report.
 * Reaching it is an error, never a report on part of the records.
 */
const MAX_PAGES = 500;
/**
 * Id ranges read side by side once a list has more than a page (as many as pages once were);
 * their pages take turns in the process's page slots (REPORT_PAGES_AT_ONCE).
 */
const REPORT_KEY_RANGES = 3;
/**
 * List pages the reports of this BFF process ask the upstream for at once, all reads of all
 * agencies together. The embedded records service answers one statement at a time: each page
 * asked beside another is a page's statements queued ahead of every other user's request (a
 * colleague's site list waited 2.4–3.6 s behind one report's six pages at once). One page at a
 * time keeps a read as fast as the upstream can go (the next page is asked while this process
 * checks the last) and puts at most one page's statements ahead of anyone else's.
 */
export const REPORT_PAGES_AT_ONCE = 1;
/**
 * Rows of a page checked between two turns of the worker's event loop: an abort, or the next
 * chunk of another report's answer, is heard between them.
 */
const KEEP_ROWS_PER_TURN = 250;

/** Lets the event loop serve what is waiting (I/O first) before the caller goes on. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
/**
 * `populate[]` names the shared module's input schemas need (src/shared/reports/index.ts), and
 * `fields[]`, the fields the reports read (with every field those schemas require): the rest of
 * a record (lures, location, comments, dates, a pool's result) was half of the 229 MB a district
 * of 100k collections and 50k pools sent, serialised by the upstream and parsed here for nothing.
 */
const COLLECTION_LIST = {
  name: 'collections',
  path: ENTITY.collection.path,
  populate: ['arthropods', 'trap', 'agency'],
  fields: [
    'id',
    'collection_date',
    'surv_year',
    'num_trap',
    'trap_nights',
    'trap_problem_bit',
    'trap',
    'agency',
    'arthropods',
  ],
  schema: reportCollection,
} as const;
const POOL_LIST = {
  name: 'pools',
  path: ENTITY.pool.path,
  populate: ['test', 'status', 'species', 'sex', 'trap', 'agency'],
  fields: [
    'id',
    'collection_date',
    'surv_year',
    'num_count',
    'species',
    'sex',
    'trap',
    'agency',
    'test',
  ],
  schema: reportPool,
} as const;

/** An agency's lists as the reports read them. */
export type ReportLists = { collections: ReportCollection[]; pools: ReportPool[] };

/** Whose lists, read with whose token, through which connection pool and page slots. */
export type ListSource = {
  upstream: UpstreamClient;
  token: string;
  agencyId: number;
  /** The process's slots for report list pages (REPORT_PAGES_AT_ONCE). */
  slots: PageSlots;
};

/** The agency's collections and pools, both lists read side by side; stops when `stop` aborts. */
export async function readReportLists(src: ListSource, stop: AbortSignal): Promise<ReportLists> {
  const [collections, pools] = await Promise.all([
    readList(src, COLLECTION_LIST, stop),
    readList(src, POOL_LIST, stop),
  ]);
  return { collections, pools };
}

type ListSpec<S extends z.ZodType> = {
  name: string;
  path: string;
  populate: readonly string[];
  fields: readonly string[];
  schema: S;
};

/**
 * Every row of one list, read by key (keysetPages: `sort=id`, `query[id][$gt]=<last id read>`)
 * so that a record retired or added by another client while the pages are read shifts no page.
 * Past the first page, the ids up to the highest are split into REPORT_KEY_RANGES ranges read side
 * by side (`$gt` and `$lte`), the last one open so a record added meanwhile is not missed. An
 * upstream that does not honour the key (KeyNotHonoured: it refuses it with 400 or 422, or answers
 * ids that do not rise past it or leave its range) is read by page number instead, the best it
 * allows. Rows are kept once per id, only the agency's own, in id order (so the same records
 * always give the same sums to the last digit).
 */
async function readList<S extends z.ZodType>(
  src: ListSource,
  list: ListSpec<S>,
  stop: AbortSignal,
): Promise<z.infer<S>[]> {
  const shape = { pageSize: REPORT_PAGE_SIZE, populate: list.populate, fields: list.fields };
  let pages = 0;
  const counted = () => {
    if ((pages += 1) > MAX_PAGES) tooManyPages(list.name);
  };
  const byKey = (afterId: number, upTo: number | null): KeysetRead => ({
    pageSize: REPORT_PAGE_SIZE,
    params: { populate: list.populate, fields: list.fields },
    afterId,
    upTo,
    fetchPage: (query) => {
      counted();
      return readPage(src, list, query, stop);
    },
  });
  const byNumber = async (n: number) =>
    (await readPage(src, list, encodeListQuery({ page: n, ...shape }), stop)) ?? refused(list.name);

  const seen = new Set<unknown>();
  const kept: { id: number; row: z.infer<S> }[] = [];
  /** Checks and keeps a page's rows, KEEP_ROWS_PER_TURN at a time (the worker's other jobs go between). */
  const keep = async (rows: readonly unknown[]) => {
    for (let at = 0; at < rows.length; at += KEEP_ROWS_PER_TURN) {
      if (at > 0) await nextTurn();
      for (const raw of rows.slice(at, at + KEEP_ROWS_PER_TURN)) keepOne(raw);
    }
  };
  const keepOne = (raw: unknown) => {
    const id = (raw as { id?: unknown } | null)?.id;
    if (id !== undefined && seen.has(id)) return;
    seen.add(id);
    const parsed = list.schema.safeParse(raw);
    if (!parsed.success) {
      // A row the reports cannot read would silently change every figure: say so instead.
      throw new HttpError(
        502,
        'upstream_unavailable',
        `The records service listed ${list.name} with a record the reports cannot read (id ${String(id)})`,
      );
    }
    const agency = (parsed.data as { agency?: { id?: unknown } | null }).agency;
    if (agency && agency.id !== src.agencyId) return;
    kept.push({ id: id as number, row: parsed.data });
  };
  const inIdOrder = () => kept.sort((a, b) => a.id - b.id).map((k) => k.row);
  /** The ids in (afterId, upTo], page by page (the next page asked while this one is kept). */
  const readRange = async (afterId: number, upTo: number | null): Promise<true> => {
    for await (const rows of keysetPages(byKey(afterId, upTo))) await keep(rows);
    return true;
  };

  const first = await unlessNotHonoured(keysetPage(byKey(0, null), 0));
  if (first !== null) {
    await keep(first);
    if (first.length < REPORT_PAGE_SIZE) return inIdOrder();
    const from = first[first.length - 1].id;
    const top = await highestId(src, list, stop);
    const bounds: (number | null)[] = [];
    if (top !== null && top > from + REPORT_KEY_RANGES) {
      for (let i = 1; i < REPORT_KEY_RANGES; i++)
        bounds.push(from + Math.floor(((top - from) * i) / REPORT_KEY_RANGES));
    }
    bounds.push(null);
    // Every range runs to its end (or its own refusal) before any fallback starts.
    const ranges = await Promise.all(
      bounds.map((upTo, i) =>
        unlessNotHonoured(readRange(i === 0 ? from : (bounds[i - 1] as number), upTo)),
      ),
    );
    if (ranges.every((honoured) => honoured !== null)) return inIdOrder();
  }
  // By page number, from the first page (rows already kept are not kept twice).
  pages = 0;
  for (let n = 1; ; n++) {
    counted();
    const rows = await byNumber(n);
    await keep(rows);
    if (rows.length < REPORT_PAGE_SIZE) return inIdOrder();
  }
}

/** What `read` gives, or null when the upstream did not honour the key (KeyNotHonoured). */
async function unlessNotHonoured<T>(read: Promise<T>): Promise<T | null> {
  try {
    return await read;
  } catch (err) {
    if (err instanceof KeyNotHonoured) return null;
    throw err;
  }
}

/** The list's highest id (`sort=-id`, one row), or null when the upstream does not say. */
async function highestId(
  src: ListSource,
  list: { name: string; path: string },
  stop: AbortSignal,
): Promise<number | null> {
  stop.throwIfAborted();
  const rows = await readPage(
    src,
    list,
    encodeListQuery({ page: 1, pageSize: 1, sort: '-id', fields: ['id'] }),
    stop,
  ).catch(() => null);
  const id = (rows?.[0] as { id?: unknown } | undefined)?.id;
  return typeof id === 'number' ? id : null;
}

function tooManyPages(name: string): never {
  throw new HttpError(
    502,
    'upstream_unavailable',
    `The records service listed more than ${MAX_PAGES} pages of ${name}: the reports would leave records out`,
  );
}

function refused(name: string): never {
  throw new HttpError(
    502,
    'upstream_unavailable',
    `The records service refused to list ${name} page by page`,
  );
}

/**
 * One page of a list with the session's token: its rows, or null when the upstream refuses the
 * query (400, 422: a parameter it does not take). 401 → reauth_required. Asked in one of the
 * process's page slots (REPORT_PAGES_AT_ONCE), waiting its turn first. Not asked once `stop` has
 * aborted (the read's every waiter has gone), nor while waiting for a slot: an abandoned read
 * ends at the pages already asked for.
 */
async function readPage(
  src: ListSource,
  list: { name: string; path: string },
  query: string,
  stop: AbortSignal,
): Promise<unknown[] | null> {
  // In a slot from asking until the answer has arrived; parsing it leaves the slot to the next.
  const res = await src.slots.run(stop, () =>
    src.upstream.request({
      method: 'GET',
      path: list.path,
      query,
      headers: { authorization: `Bearer ${src.token}`, accept: 'application/json' },
    }),
  );
  if (res.status === 401) throw reauthRequired();
  if (res.status === 400 || res.status === 422) return null;
  if (res.status !== 200) {
    throw new HttpError(
      502,
      'upstream_unavailable',
      `The records service could not list ${list.name} (HTTP ${res.status})`,
    );
  }
  return listRows(parseJson(res.body), list.name);
}
