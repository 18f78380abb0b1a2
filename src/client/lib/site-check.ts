import type { SiteRecordLike } from './site-index-core';

/**
 * A site as the site form checks a new code and place against it (features/sites site-schema's
 * siteUsingCode, the "far from your other sites" question): a stored row cut to the fields those
 * read, so the page receives a few fields per site instead of deserialising every record.
 */
export type SiteCheck = {
  localId: string;
  code: string;
  name: string;
  /** Never set on the index's checks (deleted sites are left out); a stored row may carry it. */
  deleted?: boolean;
  createdAt?: number;
  data: Record<string, unknown>;
  server: Record<string, unknown> | null;
};

const CHECKED_DATA = ['shape', 'active_date', 'deactive_date'] as const;
const CHECKED_SERVER = ['active_date', 'deactive_date', 'add_date'] as const;

function pick(from: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keys) if (from[k] !== undefined) out[k] = from[k];
  return out;
}

/** What the site form reads of a stored site (SiteCheck). */
export function siteCheckOf(row: SiteRecordLike): SiteCheck {
  return {
    localId: row.localId,
    code: row.code,
    name: row.name,
    ...(row.createdAt !== undefined ? { createdAt: row.createdAt } : {}),
    data: pick(row.data ?? {}, CHECKED_DATA),
    server: row.server ? pick(row.server, CHECKED_SERVER) : null,
  };
}
