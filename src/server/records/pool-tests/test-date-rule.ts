import type { Queryable } from '../../db/database';
import {
  earliestCollectionDay,
  latestTestDay,
  standalonePoolDay,
  testBeforeCollection,
  testDateMessages,
} from '#shared/rules';
import { validationFailed } from '../errors';

// The day helpers are the shared rule's (they define "before" across zones); re-exported for
// the record writers that import them from here.
export { earliestCollectionDay, latestTestDay, standalonePoolDay };

/** SQL for `latestTestDay` of `pool_test t`'s test date (the fuzz invariants compare with it). */
export const LATEST_TEST_DAY_SQL = `((t.test_date at time zone 'UTC') + interval '14 hours')::date`;

/** Throws 422 test_before_collection (naming `path`) when the test is before its collection. */
export function assertTestNotBeforeCollection(
  testDate: Date | string,
  collectionDay: string,
  path: 'test_date' | 'collection_date',
): void {
  const testDay = latestTestDay(testDate);
  if (!testBeforeCollection(testDay, collectionDay)) return;
  const message =
    path === 'test_date'
      ? testDateMessages.testDate(testDay, collectionDay)
      : testDateMessages.collectionDate(testDay, collectionDay);
  throw validationFailed([{ path, message }], 'test_before_collection', message);
}

/**
 * The same rule seen from the other side (issue 9, D4): a write that changes the collection day
 * a pool's tests are held to — a collection's date, a pool moved into another collection, a
 * standalone pool's collection_date — is refused when an active test of the pool(s) concerned
 * would then be dated before it. `path` names the field of the write that moved the day.
 */
export async function assertTestsNotBefore(
  q: Queryable,
  pools: { pool: number } | { collection: number },
  collectionDay: string,
  path: 'collection' | 'collection_date',
): Promise<void> {
  const byPool = 'pool' in pools;
  const { rows } = await q.query<{ test_date: Date }>(
    `select t.test_date from pool_test t join pool p on p.id = t.pool
      where ${byPool ? 'p.id' : 'p.collection'} = $1 and p.deactive_date is null
        and t.deactive_date is null
      order by t.test_date limit 1`,
    [byPool ? pools.pool : pools.collection],
  );
  // The earliest test decides: a later test's latest day is never earlier.
  if (!rows[0] || !testBeforeCollection(latestTestDay(rows[0].test_date), collectionDay)) return;
  if (!byPool)
    return assertTestNotBeforeCollection(rows[0].test_date, collectionDay, 'collection_date');
  const testDay = latestTestDay(rows[0].test_date);
  const message = testDateMessages.poolCollection(testDay, collectionDay);
  throw validationFailed([{ path, message }], 'test_before_collection', message);
}
