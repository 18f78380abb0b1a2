import { encodeListQuery, type ListParams } from '#shared/list-query';
import { HttpError } from '../../http/http-error';
import { reauthRequired } from '../session-errors';
import type { BffContext } from '../context';
import { parseJson } from '../parse-json';
import type { StoredSession } from '../session-store';

/** Rows asked per page by default: the contract's maximum. */
export const EXPORT_PAGE_SIZE = 1000;
/**
 * Bound on rows per list (a thousand full pages), so an upstream that pages forever cannot hold a
 * reply. Counted in rows, not pages: smaller pages (`page_size`) must not cut a file shorter.
 */
const MAX_ROWS = 1_000_000;

export type UpstreamList = {
  /** What the list holds, for messages ("collections"). */
  name: string;
  path: string;
  populate: readonly string[];
  /** The list's own parameters (`type: 'tick'`). */
  extra?: ListParams;
};

export type UpstreamRow = Record<string, unknown> & { id: number };

/**
 * The agency's rows of one upstream list, one page at a time, in id order. Pages are read by key
 * (`sort=id`, `query[id][$gt]=<last id>`) rather than by page number, so a record retired or added
 * while the export runs never shifts a page: nothing is skipped or repeated. While the caller
 * writes one page, the next is already being read (one page ahead at most): at most two pages are
 * in memory whatever the list's length. Rows of another agency are left out.
 */
export async function* upstreamPages(
  ctx: BffContext,
  session: StoredSession,
  list: UpstreamList,
  pageSize = EXPORT_PAGE_SIZE,
): AsyncGenerator<UpstreamRow[], void, undefined> {
  const agencyId = session.info.agency.id;
  const read = (afterId: number) => readPage(ctx, session, list, pageSize, afterId);
  let next = read(0);
  const maxPages = Math.ceil(MAX_ROWS / pageSize);
  for (let n = 0; n < maxPages; n++) {
    const rows = await next;
    if (rows.length === 0) return;
    const lastId = rows[rows.length - 1].id;
    const more = rows.length >= pageSize;
    if (more) {
      next = read(lastId);
      // The consumer may stop (the browser went away) before awaiting it: never unhandled.
      next.catch(() => undefined);
    }
    yield rows.filter((r) => {
      const agency = r.agency;
      const id = typeof agency === 'object' && agency ? (agency as { id?: unknown }).id : agency;
      return id === undefined || id === null || id === agencyId;
    });
    if (!more) return;
  }
  throw new HttpError(
    502,
    'upstream_unavailable',
    `The records service listed more than ${MAX_ROWS} ${list.name}`,
  );
}

async function readPage(
  ctx: BffContext,
  session: StoredSession,
  list: UpstreamList,
  pageSize: number,
  afterId: number,
): Promise<UpstreamRow[]> {
  const query = encodeListQuery({
    page: 1,
    pageSize,
    sort: 'id',
    populate: list.populate,
    ...list.extra,
    ...(afterId > 0 ? { query: { id: { $gt: afterId } } } : {}),
  });
  const body = (await getList(ctx, session, list, query)) as
    { rows?: unknown } | unknown[] | undefined;
  const rows = Array.isArray(body) ? body : body?.rows;
  if (!Array.isArray(rows)) {
    throw new HttpError(
      502,
      'upstream_unavailable',
      `The records service listed ${list.name} in an unknown shape`,
    );
  }
  // Ids must rise past the key asked for: an upstream that ignored the key would otherwise send
  // the same page again and again, and the file would repeat records.
  let previous = afterId;
  for (const row of rows) {
    const id = (row as { id?: unknown } | null)?.id;
    if (typeof id !== 'number' || id <= previous) {
      throw new HttpError(
        502,
        'upstream_unavailable',
        `The records service listed ${list.name} out of id order, so the export cannot be complete`,
      );
    }
    previous = id;
  }
  return rows as UpstreamRow[];
}

/** The list's total as the upstream counts it (one row asked), or null when it does not say. */
export async function upstreamCount(
  ctx: BffContext,
  session: StoredSession,
  list: UpstreamList,
): Promise<number | null> {
  const query = encodeListQuery({ page: 1, pageSize: 1, fields: ['id'], ...list.extra });
  const body = (await getList(ctx, session, list, query)) as { count?: unknown } | undefined;
  return typeof body?.count === 'number' ? body.count : null;
}

/** One GET of a list with the session's token; its parsed body (401 → reauth_required). */
async function getList(
  ctx: BffContext,
  session: StoredSession,
  list: UpstreamList,
  query: string,
): Promise<unknown> {
  const res = await ctx.upstream.request({
    method: 'GET',
    path: list.path,
    query,
    headers: { authorization: `Bearer ${session.token}`, accept: 'application/json' },
  });
  if (res.status === 401) {
    await ctx.sessions.expireToken(session, ctx.now());
    throw reauthRequired();
  }
  if (res.status !== 200) {
    throw new HttpError(
      502,
      'upstream_unavailable',
      `The records service could not list ${list.name} (HTTP ${res.status})`,
    );
  }
  return parseJson(res.body);
}
