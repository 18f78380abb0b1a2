import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  LOOKUP_LISTS,
  LOOKUP_NAMES,
  type LookupName,
  type LookupsDocument,
} from '#shared/schemas/lookups';
import { HttpError } from '../http/http-error';
import { reauthRequired } from './session-errors';
import { parseJson } from './parse-json';
import type { UpstreamClient } from './upstream-client';

const DEFAULT_LOOKUP_CATALOG = fileURLToPath(new URL('./lookup-catalog.json', import.meta.url));

/** Upstream answers meaning "no such list here": 404, 405 and 501. */
const NO_ENDPOINT = new Set([404, 405, 501]);
/** Rows asked per page (the contract's maximum); longer lists are read page by page. */
const LOOKUP_PAGE_SIZE = 1000;
/** Bound on pages per list, so an upstream that pages forever cannot hold a refresh. */
const MAX_LOOKUP_PAGES = 50;

/** The catalog file: any subset of the lists, used where the upstream has no endpoint (404/405/501). */
const catalogSchema = z.strictObject(
  Object.fromEntries(LOOKUP_NAMES.map((n) => [n, z.array(LOOKUP_LISTS[n].schema).optional()])) as {
    [K in LookupName]: z.ZodOptional<z.ZodArray<(typeof LOOKUP_LISTS)[K]['schema']>>;
  },
);
export type LookupCatalog = z.infer<typeof catalogSchema>;

export function loadLookupCatalog(path: string = DEFAULT_LOOKUP_CATALOG): LookupCatalog {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new Error(
      `Lookup catalog ${path} cannot be read: ${err instanceof Error ? err.message : String(err)}`,
      {
        cause: err,
      },
    );
  }
  const parsed = catalogSchema.safeParse(raw);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new Error(
      `Lookup catalog ${path} is not valid: ${first.path.join('.')}: ${first.message}`,
    );
  }
  return parsed.data;
}

/** The upstream refused the token the request was made with. */
const isRefused = (err: unknown) => err instanceof HttpError && err.code === 'reauth_required';

export type CachedLookups = { text: string; etag: string; fetchedAtMs: number };

/**
 * GET /api/lookups documents, one per agency, fetched with a user's token and kept for `ttlMs`.
 * The ETag hashes the lists only: a refresh that finds the same lists keeps the same document
 * (and its fetched_at), so clients keep getting 304. One refresh per agency at a time.
 */
export class LookupCache {
  private readonly byAgency = new Map<number, CachedLookups & { listsHash: string }>();
  /** The refresh under way per agency, and the token it was asked with. */
  private readonly pending = new Map<number, { token: string; promise: Promise<CachedLookups> }>();

  constructor(
    private readonly upstream: UpstreamClient,
    private readonly catalog: LookupCatalog,
    private readonly ttlMs: number,
    private readonly now: () => Date,
  ) {}

  async get(agency: { id: number; name: string }, token: string): Promise<CachedLookups> {
    const cached = this.byAgency.get(agency.id);
    if (cached && this.now().getTime() - cached.fetchedAtMs < this.ttlMs) return cached;
    let p = this.pending.get(agency.id);
    if (!p) {
      const promise = this.refresh(agency, token).finally(() => this.pending.delete(agency.id));
      p = { token, promise };
      this.pending.set(agency.id, p);
    }
    try {
      return await p.promise;
    } catch (err) {
      // The refresh was asked with a colleague's token, and the upstream refused that token: this
      // says nothing of this session's own, which asks for itself (never the colleague's 401).
      if (isRefused(err) && p.token !== token) return this.refreshOrKept(agency, token, cached);
      // An unreachable upstream should not blank the app's pick lists: serve the last document.
      if (cached && !isRefused(err)) return cached;
      throw err;
    }
  }

  private async refreshOrKept(
    agency: { id: number; name: string },
    token: string,
    cached: CachedLookups | undefined,
  ): Promise<CachedLookups> {
    try {
      return await this.refresh(agency, token);
    } catch (err) {
      if (cached && !isRefused(err)) return cached;
      throw err;
    }
  }

  private async refresh(
    agency: { id: number; name: string },
    token: string,
  ): Promise<CachedLookups> {
    const entries = await Promise.all(
      LOOKUP_NAMES.map(async (name) => [name, await this.fetchList(name, token)] as const),
    );
    const lists = Object.fromEntries(entries) as Record<LookupName, unknown[]>;
    // The catalog cannot know this agency; make sure the signed-in agency is always listed.
    if (!lists.agency.some((a) => (a as { id?: unknown }).id === agency.id)) {
      lists.agency = [...lists.agency, { id: agency.id, name: agency.name }];
    }
    const listsText = JSON.stringify(lists);
    const listsHash = createHash('sha256').update(listsText).digest('base64url');
    const previous = this.byAgency.get(agency.id);
    const nowMs = this.now().getTime();
    if (previous && previous.listsHash === listsHash) {
      const kept = { ...previous, fetchedAtMs: nowMs };
      this.byAgency.set(agency.id, kept);
      return kept;
    }
    const doc: LookupsDocument = {
      fetched_at: new Date(nowMs).toISOString(),
      ...(lists as Omit<LookupsDocument, 'fetched_at'>),
    };
    const text = JSON.stringify(doc);
    const entry = { text, etag: `"${listsHash}"`, fetchedAtMs: nowMs, listsHash };
    this.byAgency.set(agency.id, entry);
    return entry;
  }

  private async fetchList(name: LookupName, token: string): Promise<unknown[]> {
    const { path, schema } = LOOKUP_LISTS[name];
    const rows: unknown[] = [];
    const seen = new Set<unknown>();
    for (let page = 1; page <= MAX_LOOKUP_PAGES; page++) {
      const res = await this.upstream.request({
        method: 'GET',
        path,
        query: `page=${page}&pageSize=${LOOKUP_PAGE_SIZE}`,
        headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
      });
      // No such list upstream (missing, or the method or feature not implemented): the catalog's.
      if (NO_ENDPOINT.has(res.status) && page === 1) return this.catalog[name] ?? [];
      if (res.status === 401) throw reauthRequired();
      if (res.status !== 200) {
        throw new HttpError(
          502,
          'upstream_unavailable',
          `The records service could not list ${name} (HTTP ${res.status})`,
        );
      }
      const body = parseJson(res.body) as { rows?: unknown } | unknown[] | undefined;
      // Tolerate {rows, count}, {rows} without count, and a bare array.
      const pageRows = Array.isArray(body) ? body : Array.isArray(body?.rows) ? body.rows : null;
      if (!pageRows)
        throw new HttpError(
          502,
          'upstream_unavailable',
          `The records service listed ${name} in an unknown shape`,
        );
      let fresh = 0;
      for (const r of pageRows) {
        const id = (r as { id?: unknown } | null)?.id ?? r;
        if (seen.has(id)) continue;
        seen.add(id);
        fresh += 1;
        rows.push(r);
      }
      // A short page ends the list; so does a page with nothing new (an upstream without paging).
      if (pageRows.length < LOOKUP_PAGE_SIZE || fresh === 0) break;
    }
    // Rows that do not fit the shared schema are dropped rather than handed to the app's forms.
    return rows.flatMap((r) => {
      const parsed = schema.safeParse(r);
      return parsed.success ? [parsed.data] : [];
    });
  }
}
