import type { Queryable, Row } from '../../db/database';
import { serializeSite } from '../sites/serialize-site';
import { SITE_COLUMNS, type SiteRow } from '../sites/site-row';

/**
 * Sites by ID in their record shape, for `populate[]=site` of collections and pools. Scoped to
 * the agency: a record only ever references its own agency's sites.
 */
async function sitesById(
  q: Queryable,
  agency: number,
  ids: Iterable<number | null | undefined>,
): Promise<Map<number, Row>> {
  const wanted = [...new Set([...ids].filter((v): v is number => typeof v === 'number'))];
  if (wanted.length === 0) return new Map();
  const { rows } = await q.query<SiteRow>(
    `select ${SITE_COLUMNS} from site s where s.agency = $1 and s.id = any($2::int[])`,
    [agency, wanted],
  );
  return new Map(rows.map((s) => [s.id, serializeSite(s)]));
}

/** Replaces each record's `site` ID by the site record. */
export async function populateSite(q: Queryable, agency: number, records: Row[]): Promise<void> {
  const sites = await sitesById(
    q,
    agency,
    records.map((r) => r.site as number | null),
  );
  for (const r of records) if (typeof r.site === 'number') r.site = sites.get(r.site) ?? r.site;
}
