/**
 * Contract §6 "a pool test may not be dated before its collection" (422
 * `test_before_collection`). Days are `YYYY-MM-DD`, so they compare as strings. The forms know
 * the technician's local days; the records service does not know the zone, so it compares the
 * widest days below (`earliestCollectionDay`, `latestTestDay`). All decide with
 * `testBeforeCollection` and word the problem with `testDateMessages`.
 */

/** The rule itself: refused when the test's day is before the collection's day. */
export function testBeforeCollection(testDay: string, collectionDay: string): boolean {
  return testDay < collectionDay;
}

const HOUR_MS = 60 * 60 * 1000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/*
 * Across time zones: a day differs from zone to zone (a collection at 18:00 PDT is on the next
 * day in UTC), so a test is refused only when it is before the collection in every zone on earth
 * (UTC−12 … UTC+14, the offsets `isoDateInput` accepts):
 * - the collection's earliest calendar day is its day at UTC−12 (the westernmost zone), or the
 *   day as written when it was sent as a date only;
 * - the test's latest calendar day is its day at UTC+14 (the easternmost zone); a date-only test
 *   (stored at midnight UTC) keeps its written day under that shift.
 * A test on the same local day as its collection is thereby accepted wherever the technician
 * stands; a test dated a full day before the collection everywhere is still refused.
 */

/** The earliest calendar day of a stored collection date, in any zone. */
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

/** The latest calendar day of a stored test date, in any zone. */
export function latestTestDay(testDate: Date | string): string {
  return dayOf(new Date(testDate).getTime() + 14 * HOUR_MS);
}

/** How each side words the rule; the form messages take days already formatted for people. */
export const testDateMessages = {
  /** Service, a test written before its pool's collection. */
  testDate: (testDay: string, collectionDay: string) =>
    `The test date ${testDay} is before the pool's collection on ${collectionDay}; check both dates`,
  /** Service, a collection date moved after one of its pools' tests. */
  collectionDate: (testDay: string, collectionDay: string) =>
    `A pool of this collection was tested on ${testDay}, before the new collection date ${collectionDay}; check the dates`,
  /** Service, a pool moved to (or re-dated as) a collection after its tests. */
  poolCollection: (testDay: string, collectionDay: string) =>
    `This pool was tested on ${testDay}, before the collection date ${collectionDay} it would get; check the dates`,
  /** Pool test form, under the test date. */
  formTestDate: (collectionDayShown: string) =>
    `The test date cannot be before the collection date (${collectionDayShown})`,
  /** Collection form, under the collection date. */
  formCollectionDate: (testDayShown: string) =>
    `A pool of this collection was tested on ${testDayShown}: the collection date cannot be after that`,
};
