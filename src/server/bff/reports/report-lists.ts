import type { z } from 'zod';
import {
  reportCollection,
  reportPool,
  type ReportCollection,
  type ReportPool,
} from '#shared/reports';
import { HttpError } from '../../http/http-error';
import { reauthRequired } from '../session-errors';
import type { BffContext } from '../context';
import { parseJson } from '../parse-json';
import type { StoredSession } from '../session-store';

/** Rows asked per page: the contract's maximum. */
const REPORT_PAGE_SIZE = 1000;
/** Pages read from the upstream at once, so one report never floods the records service. */
const REPORT_PAGE_CONCURRENCY = 3;
/** Bound on pages per list (500k rows), so an upstream that pages forever cannot hold a report. */
const MAX_PAGES = 500;
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
  path: '/v1/arthropod/collection',
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
  path: '/v1/arthropod/pool',
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

/**
 * The agency's collections and pools as the reports read them, one entry per agency. A write
 * for the agency (`drop`) bumps its generation: a read that started before the write neither
 * stores its lists nor is joined by requests that arrive after it.
 */
class ReportListCache {
  private readonly byAgency = new Map<number, Entry>();
  private readonly pending = new Map<number, { generation: number; p: Promise<ReportLists> }>();
  private readonly generation = new Map<number, number>();

  constructor(private readonly ctx: BffContext) {}

  async get(session: StoredSession): Promise<ReportLists> {
    const agencyId = session.info.agency.id;
    const cached = this.byAgency.get(agencyId);
    if (cached && this.ctx.now().getTime() - cached.readAtMs < REPORT_LISTS_TTL_MS) {
      return cached.lists;
    }
    const generation = this.generation.get(agencyId) ?? 0;
    const running = this.pending.get(agencyId);
    if (running && running.generation === generation) return running.p;
    const p = this.read(session).then((lists) => {
      if ((this.generation.get(agencyId) ?? 0) === generation) {
        this.byAgency.set(agencyId, { lists, readAtMs: Date.parse(lists.readAt) });
      }
      return lists;
    });
    const entry = { generation, p };
    this.pending.set(agencyId, entry);
    const clear = () => {
      if (this.pending.get(agencyId) === entry) this.pending.delete(agencyId);
    };
    p.then(clear, clear);
    return p;
  }

  drop(agencyId: number): void {
    this.generation.set(agencyId, (this.generation.get(agencyId) ?? 0) + 1);
    this.byAgency.delete(agencyId);
    this.pending.delete(agencyId);
  }

  private async read(session: StoredSession): Promise<ReportLists> {
    const readAt = this.ctx.now().toISOString();
    const [collections, pools] = await Promise.all([
      readList(this.ctx, session, COLLECTION_LIST),
      readList(this.ctx, session, POOL_LIST),
    ]);
    return { collections, pools, readAt };
  }
}

const caches = new WeakMap<BffContext, ReportListCache>();

function cacheOf(ctx: BffContext): ReportListCache {
  let cache = caches.get(ctx);
  if (!cache) {
    cache = new ReportListCache(ctx);
    caches.set(ctx, cache);
  }
  return cache;
}

/** The signed-in agency's collections and pools, read from the upstream with the session's token. */
export async function reportLists(ctx: BffContext, session: StoredSession): Promise<ReportLists> {
  try {
    return await cacheOf(ctx).get(session);
  } catch (err) {
    if (err instanceof HttpError && err.code === 'reauth_required') {
      await ctx.sessions.expireToken(session.idHash, ctx.now());
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
 * Every row of one list. Page 1 first; when the upstream gives `count`, the remaining pages are
 * read REPORT_PAGE_CONCURRENCY at a time; without it, in waves of that many until a short page.
 * Rows are kept once per id (a page may shift under concurrent writes) and only the agency's own.
 */
async function readList<S extends z.ZodType>(
  ctx: BffContext,
  session: StoredSession,
  list: ListSpec<S>,
): Promise<z.infer<S>[]> {
  const populate = [
    ...list.populate.map((p) => `populate%5B%5D=${p}`),
    ...list.fields.map((f) => `fields%5B%5D=${f}`),
  ].join('&');
  const page = async (n: number): Promise<unknown[] | { rows: unknown[]; count?: number }> => {
    const res = await ctx.upstream.request({
      method: 'GET',
      path: list.path,
      query: `page=${n}&pageSize=${REPORT_PAGE_SIZE}&${populate}`,
      headers: { authorization: `Bearer ${session.token}`, accept: 'application/json' },
    });
    if (res.status === 401) throw reauthRequired();
    if (res.status !== 200) {
      throw new HttpError(
        502,
        'upstream_unavailable',
        `The records service could not list ${list.name} (HTTP ${res.status})`,
      );
    }
    const body = parseJson(res.body) as { rows?: unknown; count?: unknown } | unknown[] | undefined;
    if (Array.isArray(body)) return body;
    if (body && Array.isArray(body.rows)) {
      return { rows: body.rows, count: typeof body.count === 'number' ? body.count : undefined };
    }
    throw new HttpError(
      502,
      'upstream_unavailable',
      `The records service listed ${list.name} in an unknown shape`,
    );
  };
  const rowsOf = (p: Awaited<ReturnType<typeof page>>) => (Array.isArray(p) ? p : p.rows);

  const first = await page(1);
  const pages: unknown[][] = [rowsOf(first)];
  const count = Array.isArray(first) ? undefined : first.count;
  if (count !== undefined) {
    const last = Math.min(Math.ceil(count / REPORT_PAGE_SIZE), MAX_PAGES);
    const rest = Array.from({ length: Math.max(0, last - 1) }, (_, i) => i + 2);
    pages.push(...(await inBatches(rest, (n) => page(n).then(rowsOf))));
  } else if (pages[0].length >= REPORT_PAGE_SIZE) {
    for (let n = 2; n <= MAX_PAGES; n += REPORT_PAGE_CONCURRENCY) {
      const wave = Array.from({ length: REPORT_PAGE_CONCURRENCY }, (_, i) => n + i);
      const got = await inBatches(wave, (k) => page(k).then(rowsOf));
      pages.push(...got);
      if (got.some((rows) => rows.length < REPORT_PAGE_SIZE)) break;
    }
  }

  const seen = new Set<unknown>();
  const out: z.infer<S>[] = [];
  for (const rows of pages) {
    for (const raw of rows) {
      const id = (raw as { id?: unknown } | null)?.id;
      if (id !== undefined && seen.has(id)) continue;
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
      if (agency && agency.id !== session.info.agency.id) continue;
      out.push(parsed.data);
    }
  }
  return out;
}

/** Runs `task` over `items`, at most REPORT_PAGE_CONCURRENCY at once; results in input order. */
async function inBatches<T, R>(items: readonly T[], task: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await task(items[i]);
    }
  };
  await Promise.all(
    Array.from({ length: Math.min(REPORT_PAGE_CONCURRENCY, items.length) }, worker),
  );
  return results;
}
