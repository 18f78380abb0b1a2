import type { Queryable, Row } from '../../db/database';
import { activeLures, collectionRecords } from './collection-records';
import { populateField } from './lookup-records';
import { activeTests, populatedTests } from './pool-test-records';
import { siteRecords } from './site-records';

/** `populate[]` names a pool accepts (contract §4). */
export const POOL_POPULATE = [
  'agency',
  'user',
  'collection',
  'site',
  'location',
  'species',
  'sex',
  'trap',
  'lures',
  'test',
  'status',
] as const;

/**
 * Expands the named fields of serialised pools in place. `trap` and `lures` are the
 * collection's; `test` adds the array `test` of the pool's active tests, whose statuses are
 * populated when `status` is named too.
 */
export async function populatePools(
  q: Queryable,
  agency: number,
  records: Row[],
  names: Set<string>,
): Promise<void> {
  if (records.length === 0) return;
  const collectionIds = [
    ...new Set(records.map((r) => r.collection).filter((c): c is number => typeof c === 'number')),
  ];
  if (names.has('lures')) {
    const lures = await activeLures(q, collectionIds);
    const all = [...lures.values()].flat();
    await populateField(q, all, 'lure', 'lure');
    for (const r of records)
      r.lures = typeof r.collection === 'number' ? (lures.get(r.collection) ?? []) : [];
  }
  if (names.has('test')) {
    const tests = await activeTests(
      q,
      records.map((r) => r.id as number),
    );
    for (const r of records)
      r.test = await populatedTests(q, tests.get(r.id as number) ?? [], names.has('status'));
  }
  if (names.has('collection')) {
    const collections = await collectionRecords(q, agency, collectionIds);
    const byId = new Map(collections.map((c) => [c.id as number, c]));
    for (const r of records)
      if (typeof r.collection === 'number') r.collection = byId.get(r.collection) ?? r.collection;
  }
  if (names.has('agency')) await populateField(q, records, 'agency', 'agency');
  if (names.has('user')) await populateField(q, records, 'user', 'app_user');
  if (names.has('species')) await populateField(q, records, 'species', 'species');
  if (names.has('sex')) await populateField(q, records, 'sex', 'sex');
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
}
