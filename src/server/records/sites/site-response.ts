import type { Queryable } from '../../db/database';
import { parseQueryString, valuesOf, withIdFirst } from '../list';
import { validationFailed } from '../errors';
import { serializeSite } from './serialize-site';
import { populateSites, SITE_POPULATE } from './populate-sites';
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

/** `populate[]` of GET /v1/site/{id}: only the names of contract §4, else 422. */
export function sitePopulateOf(url: string): string[] {
  const names = valuesOf(parseQueryString(url).populate, true);
  if (names === null)
    throw validationFailed([{ path: 'populate', message: 'populate[] must be a list of names' }]);
  const bad = names.find((n) => !(SITE_POPULATE as readonly string[]).includes(n));
  if (bad) {
    throw validationFailed([
      { path: 'populate', message: `Cannot populate "${bad}"; use ${SITE_POPULATE.join(', ')}` },
    ]);
  }
  return names;
}
