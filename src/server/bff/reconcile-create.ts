import { refId, toIsoOutput } from '../../shared/schemas/common';
import { reauthRequired } from './bff-error';
import { parseJson } from './parse-json';
import { UpstreamError, type UpstreamClient } from './upstream-client';

/** How far an upstream clock may lag ours when telling "created by that attempt" from older records. */
const CLOCK_SKEW_MS = 10 * 60_000;

type Row = Record<string, unknown>;

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
  const recent = (row: Row) => {
    const added = typeof row.add_date === 'string' ? Date.parse(row.add_date) : NaN;
    return Number.isNaN(added) || added >= forwardedAt.getTime() - CLOCK_SKEW_MS;
  };
  const list = async (
    resource: string,
    query: Record<string, unknown>,
    extra = '',
  ): Promise<Row[]> => {
    const qs = new URLSearchParams({ sort: '-id', pageSize: '100' });
    for (const [k, v] of Object.entries(query)) if (v != null) qs.set(`query[${k}]`, String(v));
    const get = (query: string) =>
      upstream.request({
        method: 'GET',
        path: resource,
        query,
        headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
      });
    let res = await get(qs.toString() + extra);
    // An upstream that does not take these query[...] filters: look at its newest records instead.
    if (res.status >= 400 && res.status < 500 && res.status !== 401 && res.status !== 429) {
      res = await get(`sort=-id&pageSize=1000${extra}`);
    }
    if (res.status === 401) throw reauthRequired();
    if (res.status < 200 || res.status >= 300) {
      throw new UpstreamError(
        'unavailable',
        true,
        `reconcile list ${resource} answered ${res.status}`,
      );
    }
    const parsed = parseJson(res.body) as { rows?: unknown } | unknown[] | undefined;
    const rows = Array.isArray(parsed) ? parsed : Array.isArray(parsed?.rows) ? parsed.rows : [];
    return rows.filter((r): r is Row => typeof r === 'object' && r !== null);
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
  const pick = (rows: Row[], match: (r: Row) => boolean) =>
    rows.filter((r) => match(r) && recent(r))[0] ?? null;

  switch (path) {
    case '/v1/site': {
      if (typeof b.code !== 'string') return null;
      const rows = await list(path, { code: b.code });
      return pick(rows, (r) => r.code === b.code && !r.delete_date);
    }
    case '/v1/arthropod/collection': {
      if (b.trap == null || typeof b.collection_date !== 'string') return null;
      const rows = await list(path, { trap: b.trap, site: b.site ?? null });
      // Without a site the service may file it under the Zero Site: match its location instead.
      const samePlace = (r: Row) =>
        b.site != null ? sameId(r.site, b.site) : samePoint(r.location, b.location);
      return pick(
        rows,
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
        const found = pick(await list(path, query, `&type=${type}`), match);
        if (found) return found;
      }
      return null;
    }
    case '/v1/arthropod/pool/test': {
      if (b.pool == null || typeof b.test_date !== 'string') return null;
      const rows = await list(path, { pool: b.pool, method: b.method, target: b.target });
      return pick(
        rows,
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
