import type { Queryable } from '../../db/database';
import { withIdFirst } from '../list';
import { serializeSite } from './serialize-site';
import { populateSites } from './populate-sites';
import type { SiteRow } from './site-row';

/** Rows → response records, populated as asked, `id` first. */
export async function siteRecords(
  db: Queryable,
  rows: SiteRow[],
  populate: readonly string[] = [],
) {
  const records = rows.map(serializeSite);
  await populateSites(db, records, rows, populate);
  return records.map(withIdFirst);
}
