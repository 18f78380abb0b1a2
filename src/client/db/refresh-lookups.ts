import { lookupsDocument, type LookupsDocument } from '#shared';
import { request } from '../lib/http';
import type { LookupsRow, TraplineDb } from './database';

/** The cached lookups document (undefined before the first successful fetch). */
export function readLookups(db: TraplineDb): Promise<LookupsRow | undefined> {
  return db.lookups.get('lookups');
}

export type LookupsRefresh = 'updated' | 'unchanged' | 'failed';

/**
 * Fetches GET /api/lookups with If-None-Match and caches it in Dexie, so every form works from the
 * cache offline. A failure (offline, signed out) keeps the cache as it is. Never rejects: it runs
 * unawaited at every start and return of signal, and a database that cannot be read or written
 * (closed by a sign-out as the refresh began, upgraded by another tab, its storage gone) is a
 * failed refresh like any other, not an unhandled rejection.
 */
export async function refreshLookups(db: TraplineDb): Promise<LookupsRefresh> {
  try {
    return await fetchAndStoreLookups(db);
  } catch {
    return 'failed';
  }
}

async function fetchAndStoreLookups(db: TraplineDb): Promise<LookupsRefresh> {
  const cached = await readLookups(db);
  let res;
  try {
    res = await request<unknown>('/api/lookups', {
      headers: cached?.etag ? { 'If-None-Match': cached.etag } : {},
      timeoutMs: 20_000,
    });
  } catch {
    return 'failed';
  }
  if (res.status === 304 && cached) {
    await db.lookups.put({ ...cached, storedAt: Date.now() });
    return 'unchanged';
  }
  if (!res.ok) return 'failed';
  const parsed = lookupsDocument.safeParse(res.body);
  if (!parsed.success) return 'failed';
  const row: LookupsRow = {
    key: 'lookups',
    etag: res.headers.get('ETag'),
    document: parsed.data,
    storedAt: Date.now(),
  };
  await db.lookups.put(row);
  return 'updated';
}

/** An empty document: forms render (with empty choices) before the first fetch. */
export const EMPTY_LOOKUPS: LookupsDocument = {
  fetched_at: '',
  species: [],
  sex: [],
  trap: [],
  lure: [],
  coordinate_precision: [],
  land_usage: [],
  region: [],
  agency: [],
  test_method: [],
  test_target: [],
  test_status: [],
};
