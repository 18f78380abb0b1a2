import type { z } from 'zod';
import {
  reportCollection,
  reportPool,
  type ReportCollection,
  type ReportPool,
} from '#shared/reports';
import { v1Path } from '#shared/entities';
import { encodeListQuery } from '#shared/list-query';
import { HttpError } from '../../http/http-error';
import { reauthRequired } from '../session-errors';
import type { BffContext } from '../context';
import { parseJson } from '../parse-json';
import type { StoredSession } from '../session-store';
import { PageSlots } from './page-slots';

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
/** Rows of a page checked between two turns of the event loop. */
const KEEP_ROWS_PER_TURN = 250;

/** Lets the event loop serve what is waiting (I/O first) before the caller goes on. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
/**
 * How long read lists are kept. Writes through this BFF drop them at once (proxy-routes.ts);
 * the TTL bounds how stale they get after writes made elsewhere (another client of a hosted
 * service, the records service's command line).
 */
const REPORT_LISTS_TTL_MS = 5 * 60_000;

/**
 * `populate[]` names the shared module's input schemas need (src/shared/reports/index.ts), and
 * `fields[]`, the fields the reports read (with every field those schemas require): the rest of
 * a record (lures, location, comments, dates, a pool's result) was half of the 229 MB a district
 * of 100k collections and 50k pools sent, serialised by the upstream and parsed here for nothing.
 */
const COLLECTION_LIST = {
  name: 'collections',
  path: v1Path('collection'),
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
  path: v1Path('pool'),
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

export type ReportLists = {
  collections: ReportCollection[];
  pools: ReportPool[];
  /** When the lists were read (ISO), so a report can say how fresh it is. */
  readAt: string;
};

type Entry = { lists: ReportLists; readAtMs: number };

/** One read of an agency's lists under way, and the requests waiting for it. */
type Read = {
  /** The agency's generation when it started: a write since makes its lists stale. */
  generation: number;
  /** Id hash of the session whose token it reads with. */
  owner: string;
  promise: Promise<ReportLists>;
  /** Stops the read between pages once no request waits for it. */
  controller: AbortController;
  waiters: number;
};

/** The read was stopped: every request that waited for it had gone. */
export class ReadAbandoned extends Error {
  constructor() {
    super('Every request waiting for this read of the lists has gone');
    this.name = 'ReadAbandoned';
  }
}

/**
 * How long a session whose token the upstream accepted is given kept lists without asking again
 * (as long as the BFF trusts a session row read from its table, SESSION_CACHE_MS).
 */
const TOKEN_CONFIRMED_MS = 10_000;

/**
 * The agency's collections and pools as the reports read them, one entry per agency.
 *
 * Invariants (issue 36 N2: writes once started a full read per report, and none ever stopped):
 * 1. At most one read of an agency's lists runs at a time; a request that finds it running with
 *    the agency's current generation joins it.
 * 2. A write for the agency (`drop`) bumps its generation: the running read neither stores its
 *    lists nor is joined by requests that arrive after the write. Those wait for it to end (its
 *    own waiters served, or gone) and then start, or join, the next read: lists as fresh as the
 *    write, and still one read at a time however many writes come.
 * 3. A read is stopped between pages as soon as no request waits for it (each waiter leaves when
 *    its client has gone).
 * A read runs with the token of the session that started it; a session that joined it and sees
 * it fail for that token (reauth_required) reads again with its own, so one person's expired
 * sign-in never signs out another.
 */
class ReportListCache {
  private readonly byAgency = new Map<number, Entry>();
  private readonly running = new Map<number, Read>();
  private readonly generation = new Map<number, number>();

  constructor(private readonly ctx: BffContext) {}

  async get(session: StoredSession, left: AbortSignal): Promise<ReportLists> {
    const agencyId = session.info.agency.id;
    for (;;) {
      left.throwIfAborted();
      const cached = this.byAgency.get(agencyId);
      if (cached && this.ctx.now().getTime() - cached.readAtMs < REPORT_LISTS_TTL_MS) {
        await this.confirm(session);
        return cached.lists;
      }
      const read = this.running.get(agencyId);
      if (!read) return this.wait(this.start(session), left);
      if (read.generation !== this.generationOf(agencyId)) {
        // Invariant 2: a read from before the agency's last write ends first.
        await settled(read.promise, left);
        continue;
      }
      if (read.owner === session.idHash) return this.wait(read, left);
      try {
        const lists = await this.wait(read, left);
        await this.confirm(session);
        return lists;
      } catch (err) {
        if (!(err instanceof HttpError && err.code === 'reauth_required')) throw err;
        // The other session's token was refused (its read is over): this session's own may be
        // good, and the next turn starts a read with it.
      }
    }
  }

  private generationOf(agencyId: number): number {
    return this.generation.get(agencyId) ?? 0;
  }

  /** When each session's token was last accepted by the upstream (ms), by id hash. */
  private readonly confirmed = new Map<string, number>();

  /**
   * Lists read with another token (or a while ago) are only given to a session whose own token
   * the upstream still accepts: an account disabled or a token revoked upstream gets nothing of
   * the agency's from what the BFF keeps (reauth_required). One row asked, at most once per
   * TOKEN_CONFIRMED_MS per session. Only a refusal counts: an upstream that does not answer
   * now revoked nothing.
   */
  private async confirm(session: StoredSession): Promise<void> {
    const at = this.ctx.now().getTime();
    const last = this.confirmed.get(session.idHash);
    if (last !== undefined && at - last < TOKEN_CONFIRMED_MS && at >= last) return;
    let status: number;
    try {
      ({ status } = await this.ctx.upstream.request({
        method: 'GET',
        path: COLLECTION_LIST.path,
        query: encodeListQuery({ pageSize: 1, fields: ['id'] }),
        headers: { authorization: `Bearer ${session.token}`, accept: 'application/json' },
      }));
    } catch {
      return;
    }
    if (status === 401) throw reauthRequired();
    if (status < 300) this.accepted(session.idHash, at);
  }

  private accepted(idHash: string, at: number): void {
    this.confirmed.delete(idHash);
    this.confirmed.set(idHash, at);
    if (this.confirmed.size > 10_000) {
      this.confirmed.delete(this.confirmed.keys().next().value as string);
    }
  }

  /** A new read with this session's token; the agency's requests join it until it settles. */
  private start(session: StoredSession): Read {
    const agencyId = session.info.agency.id;
    const generation = this.generationOf(agencyId);
    const controller = new AbortController();
    const promise = this.read(session, controller.signal).then((lists) => {
      this.accepted(session.idHash, Date.parse(lists.readAt));
      if (this.generationOf(agencyId) === generation) {
        this.byAgency.set(agencyId, { lists, readAtMs: Date.parse(lists.readAt) });
      }
      return lists;
    });
    const read: Read = { generation, owner: session.idHash, promise, controller, waiters: 0 };
    this.running.set(agencyId, read);
    const clear = () => {
      if (this.running.get(agencyId) === read) this.running.delete(agencyId);
    };
    promise.then(clear, clear);
    return read;
  }

  /**
   * The read's lists for one request, which stops waiting when `left` aborts (its client has
   * gone); the last waiter to leave stops the read (invariant 3).
   */
  private wait(read: Read, left: AbortSignal): Promise<ReportLists> {
    left.throwIfAborted();
    read.waiters += 1;
    return new Promise<ReportLists>((resolve, reject) => {
      let waiting = true;
      const stop = () => {
        if (!waiting) return false;
        waiting = false;
        read.waiters -= 1;
        left.removeEventListener('abort', leave);
        return true;
      };
      const leave = () => {
        if (!stop()) return;
        reject(left.reason);
        if (read.waiters === 0) read.controller.abort(new ReadAbandoned());
      };
      left.addEventListener('abort', leave, { once: true });
      read.promise.then(
        (lists) => stop() && resolve(lists),
        (err: unknown) => stop() && reject(err),
      );
    });
  }

  /** The agency's data changed: kept lists go, and a read under way is no longer joined. */
  drop(agencyId: number): void {
    this.generation.set(agencyId, this.generationOf(agencyId) + 1);
    this.byAgency.delete(agencyId);
  }

  private async read(session: StoredSession, stop: AbortSignal): Promise<ReportLists> {
    const readAt = this.ctx.now().toISOString();
    const [collections, pools] = await Promise.all([
      readList(this.ctx, session, COLLECTION_LIST, stop),
      readList(this.ctx, session, POOL_LIST, stop),
    ]);
    return { collections, pools, readAt };
  }
}

/** Resolves once `p` has settled (either way), or rejects when `left` aborts first. */
function settled(p: Promise<unknown>, left: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const leave = () => reject(left.reason);
    left.addEventListener('abort', leave, { once: true });
    const done = () => {
      left.removeEventListener('abort', leave);
      resolve();
    };
    p.then(done, done);
  });
}

const caches = new WeakMap<BffContext, ReportListCache>();
const pageSlots = new WeakMap<BffContext, PageSlots>();

/** The process's slots for report list pages (REPORT_PAGES_AT_ONCE), one set per BFF. */
function slotsOf(ctx: BffContext): PageSlots {
  let slots = pageSlots.get(ctx);
  if (!slots) {
    slots = new PageSlots(REPORT_PAGES_AT_ONCE);
    pageSlots.set(ctx, slots);
  }
  return slots;
}

function cacheOf(ctx: BffContext): ReportListCache {
  let cache = caches.get(ctx);
  if (!cache) {
    cache = new ReportListCache(ctx);
    caches.set(ctx, cache);
  }
  return cache;
}

/**
 * The signed-in agency's collections and pools, read from the upstream with the session's token.
 * `left` aborts when the request's client has gone: it stops waiting, and a read nobody waits for
 * any more stops.
 */
export async function reportLists(
  ctx: BffContext,
  session: StoredSession,
  left: AbortSignal = new AbortController().signal,
): Promise<ReportLists> {
  try {
    return await cacheOf(ctx).get(session, left);
  } catch (err) {
    if (err instanceof HttpError && err.code === 'reauth_required') {
      await ctx.sessions.expireToken(session, ctx.now());
    }
    throw err;
  }
}

/** Forgets an agency's read lists: its data changed (a successful write through the proxy). */
export function dropReportLists(ctx: BffContext, agencyId: number): void {
  caches.get(ctx)?.drop(agencyId);
}

type ListSpec<S extends z.ZodType> = {
  name: string;
  path: string;
  populate: readonly string[];
  fields: readonly string[];
  schema: S;
};

/**
 * Every row of one list, in pages of ids read by key (`sort=id`, `query[id][$gt]=<last id read>`)
 * until a page shorter than asked, never by page number: a record retired or added by another
 * client while the pages are read shifts no page, so no live record falls between two pages and
 * none is read twice. Past the first page, the ids up to the highest are split into
 * REPORT_KEY_RANGES ranges read side by side (`$gt` and `$lte`), the last one open so a record
 * added meanwhile is not missed. An upstream that refuses the key (400, 422) or ignores it (a page
 * whose ids do not rise past it, or leave its range) is read by page number instead, the best it
 * allows. Rows are kept once per id, only the agency's own, in id order (so the same records
 * always give the same sums to the last digit).
 */
async function readList<S extends z.ZodType>(
  ctx: BffContext,
  session: StoredSession,
  list: ListSpec<S>,
  stop: AbortSignal,
): Promise<z.infer<S>[]> {
  const shape = { pageSize: REPORT_PAGE_SIZE, populate: list.populate, fields: list.fields };
  const byKey = (afterId: number, upTo: number | null) => {
    const id = upTo === null ? { $gt: afterId } : { $gt: afterId, $lte: upTo };
    const query = encodeListQuery({ page: 1, sort: 'id', query: { id }, ...shape });
    return readPage(ctx, session, list, query, stop);
  };
  const byNumber = async (n: number) =>
    (await readPage(ctx, session, list, encodeListQuery({ page: n, ...shape }), stop)) ??
    refused(list.name);
  let pages = 0;
  const counted = () => {
    if ((pages += 1) > MAX_PAGES) tooManyPages(list.name);
  };

  const seen = new Set<unknown>();
  const kept: { id: number; row: z.infer<S> }[] = [];
  /**
   * Checks and keeps a page's rows, KEEP_ROWS_PER_TURN at a time: other requests are served
   * between them (a page of 1,000 collections checked at once held this process's every other
   * request for ~0.1 s of CPU, a second or more on a loaded machine).
   */
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
    if (agency && agency.id !== session.info.agency.id) return;
    kept.push({ id: id as number, row: parsed.data });
  };
  const inIdOrder = () => kept.sort((a, b) => a.id - b.id).map((k) => k.row);

  /**
   * The ids in (afterId, upTo] page by page; false as soon as the upstream shows it did not
   * honour the key. The next page is asked for as soon as this one's last id is known, so the
   * upstream lists it while this one is checked and kept.
   */
  const readRange = async (afterId: number, upTo: number | null): Promise<boolean> => {
    let last = afterId;
    let next = byKey(last, upTo);
    for (;;) {
      counted();
      const rows = await next;
      if (rows === null || !risesPast(rows, last, upTo)) return false;
      const full = rows.length >= REPORT_PAGE_SIZE;
      if (full) {
        last = lastIdOf(rows);
        next = byKey(last, upTo);
        next.catch(() => undefined); // awaited on the next turn, unless keep() throws first
      }
      await keep(rows);
      if (!full) return true;
    }
  };

  counted();
  const first = await byKey(0, null);
  if (first !== null && risesPast(first, 0, null)) {
    await keep(first);
    if (first.length < REPORT_PAGE_SIZE) return inIdOrder();
    const from = lastIdOf(first);
    const top = await highestId(ctx, session, list, stop);
    const bounds: (number | null)[] = [];
    if (top !== null && top > from + REPORT_KEY_RANGES) {
      for (let i = 1; i < REPORT_KEY_RANGES; i++)
        bounds.push(from + Math.floor(((top - from) * i) / REPORT_KEY_RANGES));
    }
    bounds.push(null);
    const honoured = await Promise.all(
      bounds.map((upTo, i) => readRange(i === 0 ? from : (bounds[i - 1] as number), upTo)),
    );
    if (honoured.every(Boolean)) return inIdOrder();
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

/** The list's highest id (`sort=-id`, one row), or null when the upstream does not say. */
async function highestId(
  ctx: BffContext,
  session: StoredSession,
  list: { name: string; path: string },
  stop: AbortSignal,
): Promise<number | null> {
  stop.throwIfAborted();
  const rows = await readPage(
    ctx,
    session,
    list,
    encodeListQuery({ page: 1, pageSize: 1, sort: '-id', fields: ['id'] }),
    stop,
  ).catch(() => null);
  const id = (rows?.[0] as { id?: unknown } | undefined)?.id;
  return typeof id === 'number' ? id : null;
}

const lastIdOf = (rows: readonly unknown[]) => (rows[rows.length - 1] as { id: number }).id;

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

/** True when every row has a numeric id, strictly rising, all in (afterId, upTo]. */
function risesPast(rows: readonly unknown[], afterId: number, upTo: number | null): boolean {
  let previous = afterId;
  for (const row of rows) {
    const id = (row as { id?: unknown } | null)?.id;
    if (typeof id !== 'number' || id <= previous) return false;
    previous = id;
  }
  return upTo === null || previous <= upTo;
}

/**
 * One page of a list with the session's token: its rows, or null when the upstream refuses the
 * query (400, 422: a parameter it does not take). 401 → reauth_required. Asked in one of the
 * process's page slots (REPORT_PAGES_AT_ONCE), waiting its turn first. Not asked once `stop` has
 * aborted (the read's every waiter has gone), nor while waiting for a slot: an abandoned read
 * ends at the pages already asked for.
 */
async function readPage(
  ctx: BffContext,
  session: StoredSession,
  list: { name: string; path: string },
  query: string,
  stop: AbortSignal,
): Promise<unknown[] | null> {
  // In a slot from asking until the answer has arrived; parsing it leaves the slot to the next.
  const res = await slotsOf(ctx).run(stop, () =>
    ctx.upstream.request({
      method: 'GET',
      path: list.path,
      query,
      headers: { authorization: `Bearer ${session.token}`, accept: 'application/json' },
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
  const body = parseJson(res.body) as { rows?: unknown } | unknown[] | undefined;
  if (Array.isArray(body)) return body;
  if (body && Array.isArray(body.rows)) return body.rows;
  throw new HttpError(
    502,
    'upstream_unavailable',
    `The records service listed ${list.name} in an unknown shape`,
  );
}
