import type { Queryable, Row } from '../../db/database';
import { populateLureTypes, populateRefs } from '../populate';
import { poolRecords } from '../pools/pool-records';
import { populateSite } from '../common/site-records';

/** `populate[]` names a collection accepts (contract §4). */
export const COLLECTION_POPULATE = [
  'agency',
  'user',
  'trap',
  'site',
  'location',
  'arthropods',
  'pools',
  'lures',
] as const;

/**
 * Expands the named fields of serialised collections in place: lookups into their shapes,
 * `site` into the site record, `location` populates its coordinate precision, `arthropods` their
 * species and sex, `lures` becomes the lure types `{id, code, description, weight}`, and `pools` adds the active pools.
 */
export async function populateCollections(
  q: Queryable,
  agency: number,
  records: Row[],
  names: readonly string[],
): Promise<void> {
  if (records.length === 0) return;
  const has = (n: string) => names.includes(n);
  if (has('agency')) await populateRefs(q, records, 'agency', 'agency');
  if (has('user')) await populateRefs(q, records, 'user', 'user');
  if (has('trap')) await populateRefs(q, records, 'trap', 'trap');
  if (has('site')) await populateSite(q, agency, records);
  if (has('location')) {
    const locations = records.map((r) => r.location as Row | null).filter((l): l is Row => !!l);
    await populateRefs(q, locations, 'coordinate_precision', 'coordinate_precision');
  }
  if (has('arthropods')) {
    const rows = records.flatMap((r) => r.arthropods as Row[]);
    await populateRefs(q, rows, 'species', 'species');
    await populateRefs(q, rows, 'sex', 'sex');
  }
  if (has('lures')) await populateLureTypes(q, records);
  if (has('pools')) {
    const { rows } = await q.query<{ id: number }>(
      `select id from pool where collection = any($1::int[]) and agency = $2 and deactive_date is null
        order by id`,
      [records.map((r) => r.id), agency],
    );
    const pools = await poolRecords(
      q,
      agency,
      rows.map((p) => p.id),
    );
    for (const r of records) r.pools = pools.filter((p) => p.collection === r.id);
  }
}
