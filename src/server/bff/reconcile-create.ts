import { ENTITY, entityAtPath, type Entity } from '#shared/entities';
import { encodeListQuery, type ListParams } from '#shared/list-query';
import { listedRows } from '#shared/schemas/list';
import { reauthRequired } from './session-errors';
import { parseJson } from './parse-json';
import type { OtherKeys } from './idempotency-journal';
import { storedAsCreated } from './stored-match';
import { UpstreamError, type UpstreamClient, type UpstreamResponse } from './upstream-client';

/** How far an upstream clock may lag ours when telling "created by that attempt" from older records. */
const CLOCK_SKEW_MS = 10 * 60_000;

/** How much later than `add_date` a create may stamp `updated` (see editedSinceStored). */
const EDITED_AFTER_MS = 1_000;

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

/** What reconciliation proved about a create whose first answer never came back. */
export type Reconciled =
  /** Exactly one stored record is this request's own: replay it. */
  | { kind: 'found'; record: Row }
  /** Every row that could be it was seen and none is: the upstream never created it. */
  | { kind: 'absent' }
  /** More than one record fits, or a record fits as far as the list shows: never guess. */
  | { kind: 'ambiguous'; candidates: number };

/**
 * After a BFF died (or lost the answer) between forwarding a create and recording its answer, asks
 * an upstream that does not honour Idempotency-Key whether the record exists. A record is this
 * create's own only when it is provably so:
 * - it is the whole body as stored: every field the body sent equals the stored record, abundance
 *   rows and lures included, and every optional field it left out is empty (stored-match.ts);
 *   a record edited since it was stored (`updated` after `add_date`) that differs may still be
 *   this create's, edited: it is never taken as absent (so never created twice) nor as ours;
 *   look-alike siblings (two traps of a kind at a site on a day, equal pools, same-day re-tests)
 *   may differ in nothing a list shows, so they are never told apart by guessing;
 * - it was added since the first forward (less clock skew);
 * - it was not stored by another user: the upstream takes a record's `user` from the token, so
 *   a look-alike a colleague stored (with another tool, under no key of this journal) is theirs;
 *   where the upstream does not say the session's user id, a record stored under another
 *   username is "cannot tell" (the name may have been spelt another way at sign-in);
 * - the journal has not already given it to another key, and no other key whose create could
 *   have made it is still unsettled (`otherKeys`: that key's send may be the one that made it);
 * - it is the only such record.
 * The natural key of the entity registry (site code; collection trap and site; pool species, sex,
 * count and collection; test pool, method and target) only narrows what the upstream is asked
 * to list.
 */
export async function reconcileCreate(
  upstream: UpstreamClient,
  token: string,
  path: string,
  bodyText: string,
  firstForwardAt: Date,
  otherKeys: (ids: number[]) => Promise<OtherKeys>,
  /** Who the session is: its user id (null where the upstream does not say it) and username. */
  user: { id: number | null; username: string } | null = null,
): Promise<Reconciled> {
  const body = parseJson(bodyText);
  if (!body || typeof body !== 'object' || Array.isArray(body)) return { kind: 'absent' };
  const b = body as Row;
  const entity = entityAtPath(path);
  if (!entity) return { kind: 'absent' };
  const get = (resource: string, query: string) =>
    upstream.request({
      method: 'GET',
      path: resource,
      query,
      headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
    });
  const recent = (row: Row) => {
    const added = typeof row.add_date === 'string' ? Date.parse(row.add_date) : NaN;
    return Number.isNaN(added) || added >= firstForwardAt.getTime() - CLOCK_SKEW_MS;
  };
  /** Stored under another user's token: provably not this request's (unless the body named one). */
  const byAnotherUser = (row: Row) => {
    if (!user || user.id === null || b.user !== undefined) return false;
    const stored = idOf(row.user);
    return stored !== null && stored !== user.id;
  };
  /**
   * The same, where the session's user id is unknown (the public service has no GET /v1/me): by
   * username, read from the record with its user populated. No answer is no proof.
   */
  const storedByAnotherUsername = async (row: Row) => {
    if (!user || user.id !== null || b.user !== undefined || typeof row.id !== 'number')
      return false;
    const res = await get(`${path}/${row.id}`, encodeListQuery({ populate: ['user'] }));
    if (res.status === 401) throw reauthRequired();
    if (res.status < 200 || res.status >= 300) return false;
    const stored = parseJson(res.body);
    const by = stored && typeof stored === 'object' ? (stored as Row).user : undefined;
    const username = by && typeof by === 'object' ? (by as Row).username : undefined;
    return typeof username === 'string' && username.toLowerCase() !== user.username.toLowerCase();
  };
  /**
   * Every recent row the upstream lists for `query` that is not provably another record, newest
   * pages first where the upstream honours `sort=-id`. Rows are compared here, never trusted to be
   * filtered: an upstream may ignore `query[...]` and `sort` and page oldest first. Returns only
   * once every row that could match was seen (every row, or the upstream sorts newest first and
   * has reached rows older than the first forward), and throws when it cannot tell, so the create
   * is never forwarded twice on a guess.
   */
  const candidates = async (
    resource: string,
    key: Record<string, unknown>,
    variant: ListParams,
  ): Promise<{ same: Row[]; unknown: Row[] }> => {
    const filters = Object.fromEntries(
      Object.entries(key).flatMap(([k, v]) =>
        typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean'
          ? [[k, String(v)]]
          : [],
      ),
    );
    const filterable = Object.keys(filters).length > 0;
    let filtered = true;
    const seen = new Set<unknown>();
    const found = { same: [] as Row[], unknown: [] as Row[] };
    let lastId = Infinity;
    let newestFirst = true;
    for (let page = 1; page <= MAX_PAGES; page++) {
      const paging = { sort: '-id', page, pageSize: PAGE_SIZE, ...variant };
      let res = await get(
        resource,
        encodeListQuery(filtered ? { ...paging, query: filters } : paging),
      );
      // An upstream that refuses these query[...] filters: list everything instead.
      if (filtered && filterable && isRefusal(res.status)) {
        filtered = false;
        res = await get(resource, encodeListQuery(paging));
      }
      const { rows, count } = listed(resource, res);
      let fresh = 0;
      for (const row of rows) {
        if (seen.has(row.id ?? row)) continue;
        seen.add(row.id ?? row);
        fresh += 1;
        if (recent(row) && !byAnotherUser(row)) {
          let match = storedAsCreated(entity, b, row);
          // Edited since it was stored: its fields say what the edit wrote, not what the create
          // sent, so a difference proves nothing (it may be this create's record, edited).
          if (match === 'different' && editedSinceStored(row)) match = 'unknown';
          if (match !== 'different') found[match].push(row);
        }
        const id = typeof row.id === 'number' ? row.id : NaN;
        if (!(id < lastId)) newestFirst = false;
        lastId = id;
      }
      // The whole list has been seen: a short or empty page, or as many rows as the stated count.
      if (rows.length < PAGE_SIZE || (count !== undefined && seen.size >= count)) return found;
      // A full page with nothing new: the upstream ignores `page`, and more rows may exist.
      if (fresh === 0) break;
      // Newest first and already older than the first forward (less skew): nothing newer follows.
      const last = rows[rows.length - 1];
      if (newestFirst && typeof last.add_date === 'string' && !recent(last)) return found;
    }
    throw new UpstreamError(
      'unavailable',
      true,
      `reconcile ${resource}: could not tell whether the record exists within ${MAX_PAGES} pages`,
    );
  };

  const { naturalKey, listVariants } = ENTITY[entity];
  const key = Object.fromEntries(naturalKey.map((field) => [field, b[field]]));
  const found = { same: [] as Row[], unknown: [] as Row[] };
  // Every list variant (pool lists show one species type at a time, contract §4).
  for (const variant of listVariants) {
    const more = await candidates(path, key, variant);
    found.same.push(...more.same);
    found.unknown.push(...more.unknown);
  }
  const ids = [...found.same, ...found.unknown]
    .map((r) => r.id)
    .filter((id): id is number => typeof id === 'number');
  if (found.same.length + found.unknown.length === 0) return { kind: 'absent' };
  const others = await otherKeys(ids);
  const mine = (rows: Row[]) => rows.filter((r) => !others.given.has(r.id as number));
  const same = mine(found.same);
  const unknown = mine(found.unknown);
  if (same.length === 0 && unknown.length === 0) return { kind: 'absent' };
  if (same.length === 1 && unknown.length === 0 && !couldBeOthers(entity, others, same[0])) {
    // The only look-alike, stored under another username: a colleague's (with another tool,
    // under no key of ours), or this user's under another spelling of the name: cannot tell.
    if (await storedByAnotherUsername(same[0])) return { kind: 'ambiguous', candidates: 1 };
    return { kind: 'found', record: same[0] };
  }
  return { kind: 'ambiguous', candidates: same.length + unknown.length };
}

/**
 * Whether a listed record was changed after it was stored: a create stamps `add_date` and
 * `updated` at once (an upstream that stamps them one by one, within EDITED_AFTER_MS), an edit
 * moves `updated` on.
 */
function editedSinceStored(row: Row): boolean {
  const added = typeof row.add_date === 'string' ? Date.parse(row.add_date) : NaN;
  const updated = typeof row.updated === 'string' ? Date.parse(row.updated) : NaN;
  return updated - added > EDITED_AFTER_MS;
}

/** A user id as lists give it: the id, or the populated user record. */
function idOf(v: unknown): number | null {
  if (typeof v === 'number') return v;
  if (v && typeof v === 'object' && typeof (v as Row).id === 'number')
    return (v as Row).id as number;
  return null;
}

/**
 * Whether a record could be the create of another key that is still unsettled: its body, as
 * stored, is not provably different. Two look-alikes whose answers were both lost (or whose
 * second send never left a dead BFF) cannot be told apart from the lists, whichever retries first.
 */
function couldBeOthers(entity: Entity, others: OtherKeys, record: Row): boolean {
  return others.unsettledBodies.some((text) => {
    const body = parseJson(text);
    if (!body || typeof body !== 'object' || Array.isArray(body)) return false;
    return storedAsCreated(entity, body as Row, record) !== 'different';
  });
}
