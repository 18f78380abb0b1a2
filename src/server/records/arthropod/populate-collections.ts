import type { Queryable, Row } from '../../db/database';
import { populateField } from './lookup-records';
import { poolRecords } from './pool-records';
import { siteRecords } from './site-records';

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

/** Expands the named ID fields of serialised collections in place. */
export async function populateCollections(
  q: Queryable,
  agency: number,
  records: Row[],
  names: Set<string>,
): Promise<void> {
  if (records.length === 0) return;
  if (names.has('agency')) await populateField(q, records, 'agency', 'agency');
  if (names.has('user')) await populateField(q, records, 'user', 'app_user');
  if (names.has('trap')) await populateField(q, records, 'trap', 'trap');
  if (names.has('site')) {
    const sites = await siteRecords(
      q,
      agency,
      records.map((r) => r.site as number | null),
    );
    for (const r of records) if (typeof r.site === 'number') r.site = sites.get(r.site) ?? r.site;
  }
  if (names.has('location')) {
    const locations = records
      .map((r) => r.location as Row | null)
      .filter((l): l is Row => l !== null);
    await populateField(q, locations, 'coordinate_precision', 'coordinate_precision');
  }
  if (names.has('arthropods')) {
    const rows = records.flatMap((r) => r.arthropods as Row[]);
    await populateField(q, rows, 'species', 'species');
    await populateField(q, rows, 'sex', 'sex');
  }
  if (names.has('lures'))
    await populateField(
      q,
      records.flatMap((r) => r.lures as Row[]),
      'lure',
      'lure',
    );
  if (names.has('pools')) {
    const { rows } = await q.query<{ id: number; collection: number }>(
      `select id, collection from pool where collection = any($1::int[]) and agency = $2 and deactive_date is null
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
