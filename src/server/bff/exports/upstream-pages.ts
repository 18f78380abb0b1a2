import { encodeListQuery, type ListParams } from '#shared/list-query';
import { KeyNotHonoured, keysetPages, listRows, type KeyedRow } from '../keyset-pages';
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

export type UpstreamRow = KeyedRow;

/**
 * The agency's rows of one upstream list, one page at a time, in id order, read by key
 * (keysetPages: nothing skipped or repeated while records change, one page read ahead, so at most
 * two pages are in memory whatever the list's length). Rows of another agency are left out. An
 * upstream that does not honour the key cannot give a complete file: 502, never a partial one.
 */
export async function* upstreamPages(
  ctx: BffContext,
  session: StoredSession,
  list: UpstreamList,
  pageSize = EXPORT_PAGE_SIZE,
): AsyncGenerator<UpstreamRow[], void, undefined> {
  const agencyId = session.info.agency.id;
  const pages = keysetPages({
    pageSize,
    params: { populate: list.populate, ...list.extra },
    fetchPage: async (query) => listRows(await getList(ctx, session, list, query), list.name),
  });
  let rowsRead = 0;
  try {
    for await (const rows of pages) {
      if ((rowsRead += rows.length) > MAX_ROWS) {
        throw new HttpError(
          502,
          'upstream_unavailable',
          `The records service listed more than ${MAX_ROWS} ${list.name}`,
        );
      }
      yield rows.filter((r) => {
        const agency = r.agency;
        const id = typeof agency === 'object' && agency ? (agency as { id?: unknown }).id : agency;
        return id === undefined || id === null || id === agencyId;
      });
    }
  } catch (err) {
    if (!(err instanceof KeyNotHonoured)) throw err;
    throw new HttpError(
      502,
      'upstream_unavailable',
      `The records service listed ${list.name} out of id order, so the export cannot be complete`,
    );
  }
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
