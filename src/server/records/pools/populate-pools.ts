import type { Queryable, Row } from '../../db/database';
import { populateLureTypes, populateRefs } from '../populate';
import { activeLures, collectionRecords } from '../collections/collection-records';
import { activeTests, populatedTests } from '../pool-tests/pool-test-records';
import { populateSite } from '../common/site-records';

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
 * collection's (`lures` its lure types `{id, code, description, weight}`); `test` adds the array `test` of the pool's active tests, whose statuses are
 * populated when `status` is named too.
 */
export async function populatePools(
  q: Queryable,
  agency: number,
  records: Row[],
  names: readonly string[],
): Promise<void> {
  if (records.length === 0) return;
  const has = (n: string) => names.includes(n);
  const collectionIds = [
    ...new Set(records.map((r) => r.collection).filter((c): c is number => typeof c === 'number')),
  ];
  if (has('lures')) {
    const lures = await activeLures(q, collectionIds);
    for (const r of records) {
      r.lures = typeof r.collection === 'number' ? (lures.get(r.collection) ?? []) : [];
    }
    await populateLureTypes(q, records);
  }
  if (has('test')) {
    const tests = await activeTests(
      q,
      records.map((r) => r.id as number),
    );
    // One populate over the page's tests (a few lookup queries), not one per pool: a 1,000-pool
    // page took ~1 s of 4,000 queries. populatedTests keeps its input's order.
    const all = [...tests.values()].flat();
    const populated = await populatedTests(q, all, has('status'));
    const byPool = new Map<number, Row[]>();
    all.forEach((t, i) => {
      const pool = t.pool as number;
      byPool.set(pool, [...(byPool.get(pool) ?? []), populated[i]]);
    });
    for (const r of records) r.test = byPool.get(r.id as number) ?? [];
  }
  if (has('collection')) {
    const collections = await collectionRecords(q, agency, collectionIds);
    const byId = new Map(collections.map((c) => [c.id as number, c]));
    for (const r of records) {
      if (typeof r.collection === 'number') r.collection = byId.get(r.collection) ?? r.collection;
    }
  }
  if (has('agency')) await populateRefs(q, records, 'agency', 'agency');
  if (has('user')) await populateRefs(q, records, 'user', 'user');
  if (has('species')) await populateRefs(q, records, 'species', 'species');
  if (has('sex')) await populateRefs(q, records, 'sex', 'sex');
  if (has('trap')) await populateRefs(q, records, 'trap', 'trap');
  if (has('site')) await populateSite(q, agency, records);
  if (has('location')) {
    const locations = records.map((r) => r.location as Row | null).filter((l): l is Row => !!l);
    await populateRefs(q, locations, 'coordinate_precision', 'coordinate_precision');
  }
}
