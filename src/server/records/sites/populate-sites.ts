import type { Queryable } from '../../db/database';
import { populateRefs } from '../populate';
import type { SiteRow } from './site-row';

export const SITE_POPULATE = [
  'user',
  'agency',
  'coordinate_precision',
  'original_location',
  'region',
] as const;

/**
 * Expands the populate[] names of a site (contract §4). `original_location` is the location
 * record the site's coordinates were first given with; this service keeps a site's point on the
 * site itself, so it is that point as a location record (`table_name: "site"`).
 */
export async function populateSites(
  db: Queryable,
  records: Record<string, unknown>[],
  rows: SiteRow[],
  names: readonly string[],
): Promise<void> {
  if (names.includes('original_location')) {
    records.forEach((r, i) => {
      r.original_location = {
        table_name: 'site',
        record_id: rows[i].id,
        agency: rows[i].agency,
        shape: r.shape,
        coordinate_precision: rows[i].coordinate_precision,
      };
    });
  }
  if (names.includes('user')) await populateRefs(db, records, 'user', 'user');
  if (names.includes('agency')) await populateRefs(db, records, 'agency', 'agency');
  if (names.includes('region')) await populateRefs(db, records, 'region', 'region');
  if (names.includes('coordinate_precision')) {
    await populateRefs(db, records, 'coordinate_precision', 'coordinate_precision');
    if (names.includes('original_location')) {
      for (const r of records) {
        const loc = r.original_location as Record<string, unknown>;
        loc.coordinate_precision = r.coordinate_precision;
      }
    }
  }
}
