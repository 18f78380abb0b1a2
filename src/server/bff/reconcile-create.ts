import { refId, toIsoOutput } from '../../shared/schemas/common';
import { listedRows } from '../../shared/schemas/list';
import { reauthRequired } from './bff-error';
import { parseJson } from './parse-json';
import { UpstreamError, type UpstreamClient, type UpstreamResponse } from './upstream-client';

/** How far an upstream clock may lag ours when telling "created by that attempt" from older records. */
const CLOCK_SKEW_MS = 10 * 60_000;

/** Rows asked per list page: the contract's default, which any upstream serves whole. */
const PAGE_SIZE = 100;
/** Pages read before giving up (the retry then answers 502 and the app tries again later). */
const MAX_PAGES = 50;

type Row = Record<string, unknown>;

/** A 4xx about the request (not the token, not "later"): the upstream does not take the filters. */
const isRefusal = (status: number) =>
  status >= 400 && status < 500 && status !== 401 && status !== 429;

/** The rows of a list answer ({rows, count}, {rows} or a bare array); throws on anything else. */
function listed(resource: string, res: UpstreamResponse): { rows: Row[]; count?: number } {
  if (res.status === 401) throw reauthRequired();
  if (res.status < 200 || res.status >= 300) {
    throw new UpstreamError(
      'unavailable',
      true,
      `reconcile list ${resource} answered ${res.status}`,
    );
  }
  const list = listedRows(parseJson(res.body));
  if (!list) throw new UpstreamError('unavailable', true, `reconcile list ${resource}: no rows`);
  return { rows: list.rows, count: list.count ?? undefined };
}

/**
 * After a BFF died (or lost the answer) between forwarding a create and recording its answer, asks
 * the upstream whether the record exists, by its natural key:
 * site by code; collection by site, collection date and trap; pool by collection (or site and
 * date), species, sex and count; pool test by pool, method, target and test date.
 * Returns the record to replay as a 201, or null when the upstream has none (forward again).
 * Only records added since the first forward (less clock skew) count, so an older record that
 * happens to share the natural key is never mistaken for this create's result.
 */
export async function findCreatedRecord(
  upstream: UpstreamClient,
  token: string,
  path: string,
  bodyText: string,
  forwardedAt: Date,
): Promise<Row | null> {
  const body = parseJson(bodyText);
  if (!body || typeof body !== 'object' || Array.isArray(body)) return null;
  const b = body as Row;
  const get = (resource: string, query: string) =>
    upstream.request({
      method: 'GET',
      path: resource,
      query,
      headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
    });
  const recent = (row: Row) => {
    const added = typeof row.add_date === 'string' ? Date.parse(row.add_date) : NaN;
    return Number.isNaN(added) || added >= forwardedAt.getTime() - CLOCK_SKEW_MS;
  };
  /**
   * Every row the upstream lists for `query` that `match`es, newest pages first where the upstream
   * honours `sort=-id`. Rows are checked against the natural key here, never trusted to be
   * filtered: an upstream may ignore `query[...]` and `sort` and page oldest first. Returns the
   * first recent match, null only when the record is surely absent (every row seen, or the
   * upstream sorts newest first and has reached rows older than the first forward), and throws
   * when it cannot tell, so the create is never forwarded twice on a guess.
   */
  const find = async (
    resource: string,
    query: Record<string, unknown>,
    match: (r: Row) => boolean,
    extra = '',
  ): Promise<Row | null> => {
    const filters = new URLSearchParams();
    for (const [k, v] of Object.entries(query))
      if (v != null) filters.set(`query[${k}]`, String(v));
    let filtered = true;
    const seen = new Set<unknown>();
    let lastId = Infinity;
    let newestFirst = true;
    for (let page = 1; page <= MAX_PAGES; page++) {
      const qs = new URLSearchParams({
        sort: '-id',
        page: String(page),
        pageSize: String(PAGE_SIZE),
      });
      let res = await get(resource, `${qs}${filtered ? `&${filters}` : ''}${extra}`);
      // An upstream that refuses these query[...] filters: list everything instead.
      if (filtered && filters.size > 0 && isRefusal(res.status)) {
        filtered = false;
        res = await get(resource, `${qs}${extra}`);
      }
      const { rows, count } = listed(resource, res);
      let fresh = 0;
      for (const row of rows) {
        if (seen.has(row.id ?? row)) continue;
        seen.add(row.id ?? row);
        fresh += 1;
        if (match(row) && recent(row)) return row;
        const id = typeof row.id === 'number' ? row.id : NaN;
        if (!(id < lastId)) newestFirst = false;
        lastId = id;
      }
      // The whole list has been seen: a short or empty page, or as many rows as the stated count.
      if (rows.length < PAGE_SIZE || (count !== undefined && seen.size >= count)) return null;
      // A full page with nothing new: the upstream ignores `page`, and more rows may exist.
      if (fresh === 0) break;
      // Newest first and already older than the first forward (less skew): nothing newer follows.
      const last = rows[rows.length - 1];
      if (newestFirst && typeof last.add_date === 'string' && !recent(last)) return null;
    }
    throw new UpstreamError(
      'unavailable',
      true,
      `reconcile ${resource}: could not tell whether the record exists within ${MAX_PAGES} pages`,
    );
  };
  const sameId = (a: unknown, b: unknown) =>
    refId(a as number | { id: number } | null) === (b ?? null);
  const sameDate = (a: unknown, b: unknown) =>
    typeof a === 'string' && typeof b === 'string' && Date.parse(a) === Date.parse(toIsoOutput(b));
  const samePoint = (a: unknown, b: unknown) => {
    const pa = (a as { shape?: { coordinates?: unknown } } | null)?.shape?.coordinates;
    const pb = (b as { shape?: { coordinates?: unknown } } | null)?.shape?.coordinates;
    return pb === undefined || JSON.stringify(pa) === JSON.stringify(pb);
  };

  switch (path) {
    case '/v1/site': {
      if (typeof b.code !== 'string') return null;
      return find(path, { code: b.code }, (r) => r.code === b.code && !r.delete_date);
    }
    case '/v1/arthropod/collection': {
      if (b.trap == null || typeof b.collection_date !== 'string') return null;
      // Without a site the service may file it under the Zero Site: match its location instead.
      const samePlace = (r: Row) =>
        b.site != null ? sameId(r.site, b.site) : samePoint(r.location, b.location);
      return find(
        path,
        { trap: b.trap, site: b.site ?? null },
        (r) =>
          sameId(r.trap, b.trap) && samePlace(r) && sameDate(r.collection_date, b.collection_date),
      );
    }
    case '/v1/arthropod/pool': {
      const query = {
        species: b.species,
        sex: b.sex,
        num_count: b.num_count,
        collection: b.collection ?? null,
      };
      const match = (r: Row) =>
        sameId(r.species, b.species) &&
        sameId(r.sex, b.sex) &&
        r.num_count === b.num_count &&
        (b.collection != null ? sameId(r.collection, b.collection) : sameId(r.site, b.site));
      // Pool lists default to mosquito species (contract §4): look at the other types too.
      for (const type of ['mosquito', 'tick', 'nontick']) {
        const found = await find(path, query, match, `&type=${type}`);
        if (found) return found;
      }
      return null;
    }
    case '/v1/arthropod/pool/test': {
      if (b.pool == null || typeof b.test_date !== 'string') return null;
      return find(
        path,
        { pool: b.pool, method: b.method, target: b.target },
        (r) =>
          sameId(r.pool, b.pool) &&
          sameId(r.method, b.method) &&
          sameId(r.target, b.target) &&
          sameDate(r.test_date, b.test_date),
      );
    }
    default:
      return null;
  }
}
