import { ENTITY } from '#shared/entities';
import { refId } from '#shared/schemas/common';
import type { BffContext } from '../context';
import { upstreamPages, type UpstreamList, type UpstreamRow } from '../exports/upstream-pages';
import type { StoredSession } from '../session-store';

/** What the import compares of a site the agency already has. */
export type ExistingSite = {
  id: number;
  code: string;
  name: string;
  coordinate_precision: number | null;
  coordinates: [number, number] | null;
  active_date: string | null;
  deactive_date: string | null;
  comments: string | null;
};

const FIELDS = [
  'code',
  'name',
  'coordinate_precision',
  'shape',
  'active_date',
  'deactive_date',
  'comments',
  'agency',
];

const SITES: UpstreamList = {
  name: 'sites',
  path: ENTITY.site.path,
  populate: [],
  extra: { fields: FIELDS },
};

/**
 * The agency's live sites by code, read from the upstream's list a page at a time (by id, so a
 * site added meanwhile never shifts a page). Where several sites share a code (revisions for
 * distinct periods, contract §6), the import matches the one in use: no deactive_date, else the
 * one that started last, else the newest.
 */
export async function existingSitesByCode(
  ctx: BffContext,
  session: StoredSession,
): Promise<Map<string, ExistingSite>> {
  const byCode = new Map<string, ExistingSite>();
  for await (const page of upstreamPages(ctx, session, SITES)) {
    for (const row of page) {
      const site = toExisting(row);
      if (!site) continue;
      const held = byCode.get(site.code);
      if (!held || preferred(site, held)) byCode.set(site.code, site);
    }
  }
  return byCode;
}

function preferred(a: ExistingSite, b: ExistingSite): boolean {
  if ((a.deactive_date === null) !== (b.deactive_date === null)) return a.deactive_date === null;
  const at = a.active_date ? Date.parse(a.active_date) : -Infinity;
  const bt = b.active_date ? Date.parse(b.active_date) : -Infinity;
  return at !== bt ? at > bt : a.id > b.id;
}

function toExisting(row: UpstreamRow): ExistingSite | null {
  if (typeof row.code !== 'string') return null;
  const shape = row.shape as { coordinates?: unknown } | null | undefined;
  const c = Array.isArray(shape?.coordinates) ? shape.coordinates : null;
  const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);
  return {
    id: row.id,
    code: row.code,
    name: typeof row.name === 'string' ? row.name : '',
    coordinate_precision: refId(row.coordinate_precision as number | { id: number } | null),
    coordinates: c && c.length >= 2 ? [Number(c[0]), Number(c[1])] : null,
    active_date: str(row.active_date),
    deactive_date: str(row.deactive_date),
    comments: str(row.comments),
  };
}
