import type { Queryable } from '../../db/database';
import { validationFailed } from '../errors';

const HOUR_MS = 60 * 60 * 1000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * Contract §6 "a test may not be dated before its collection", across time zones. The service
 * does not know the technician's zone, and a day differs from zone to zone: a collection at
 * 18:00 PDT is on the next day in UTC. A test is therefore refused only when it is before the
 * collection in every zone on earth (UTC−12 … UTC+14):
 * - the collection's earliest calendar day is its day at UTC−12 (the westernmost zone), or
 *   the day as written when it was sent as a date only;
 * - the test's latest calendar day is its day at UTC+14 (the easternmost zone); a date-only test
 *   (stored at midnight UTC) keeps its written day under that shift.
 * Refuse when latest test day < earliest collection day. A test on the same local day as its
 * collection is thereby accepted wherever the technician stands; a test dated a full day before
 * the collection everywhere is still refused.
 */
export function earliestCollectionDay(collectionDate: Date | string, dateOnly: boolean): string {
  const ms = new Date(collectionDate).getTime();
  return dateOnly ? dayOf(ms) : dayOf(ms - 12 * HOUR_MS);
}

/**
 * A standalone pool stores no date_only flag: its collection_date is a date only when it is at
 * midnight UTC (how date-only input is stored).
 */
export function standalonePoolDay(collectionDate: Date | string): string {
  const midnight = new Date(collectionDate).toISOString().endsWith('T00:00:00.000Z');
  return earliestCollectionDay(collectionDate, midnight);
}

export function latestTestDay(testDate: Date | string): string {
  return dayOf(new Date(testDate).getTime() + 14 * HOUR_MS);
}

/** SQL for the latest calendar day of `pool_test t`'s test date, for comparing with a day. */
export const LATEST_TEST_DAY_SQL = `((t.test_date at time zone 'UTC') + interval '14 hours')::date`;

/** Throws 422 test_before_collection (naming `path`) when the test is before its collection. */
export function assertTestNotBeforeCollection(
  testDate: Date | string,
  collectionDay: string,
  path: 'test_date' | 'collection_date',
): void {
  const testDay = latestTestDay(testDate);
  if (testDay >= collectionDay) return;
  const message =
    path === 'test_date'
      ? `The test date ${testDay} is before the pool's collection on ${collectionDay}; check both dates`
      : `A pool of this collection was tested on ${testDay}, before the new collection date ${collectionDay}; check the dates`;
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
        and t.deactive_date is null and ${LATEST_TEST_DAY_SQL} < $2::date
      order by t.test_date limit 1`,
    [byPool ? pools.pool : pools.collection, collectionDay],
  );
  if (!rows[0]) return;
  if (!byPool)
    return assertTestNotBeforeCollection(rows[0].test_date, collectionDay, 'collection_date');
  const testDay = latestTestDay(rows[0].test_date);
  const message = `This pool was tested on ${testDay}, before the collection date ${collectionDay} it would get; check the dates`;
  throw validationFailed([{ path, message }], 'test_before_collection', message);
}
