/**
 * Issue 35 (6): values a pool test cannot have, refused before they drive the infection rate.
 * The pool test form, the tablet's repository and the records service decide with these and
 * word the problem with `poolTestValueMessages`.
 *
 * - A test value is never negative, whatever the method (a Ct, RAMP units).
 * - A Ct (the value of a PCR method) is between 0 and 45 cycles: real-time PCR runs stop at 40–45,
 *   so a larger Ct is a typo. Other methods' values (RAMP units run into the hundreds) have no
 *   upper bound here.
 * - A test is not dated in the future. The form knows the tablet's local day and refuses any day
 *   after it; the records service does not know the tablet's zone, so it allows up to its UTC
 *   day + 1 (the easternmost zones, UTC+14, are a day ahead of UTC) and compares the day as
 *   written (a date-time with offset keeps the sender's local day in its first ten characters).
 */

export const CT_MIN = 0;
export const CT_MAX = 45;

/** Whether a method's value is a Ct (cycle threshold): the PCR methods (RT-PCR, qPCR…). */
export function reportsCt(method: { name?: string | null; acronym?: string | null }): boolean {
  return /PCR/i.test(`${method.acronym ?? ''} ${method.name ?? ''}`);
}

/** The rule on a Ct: refused outside CT_MIN…CT_MAX. */
export function ctOutOfRange(value: number): boolean {
  return !(value >= CT_MIN && value <= CT_MAX);
}

/** The calendar day of an input date (`2026-07-14` or `2026-07-14T06:30:00-07:00`) as written. */
export const writtenDay = (input: string): string => input.slice(0, 10);

/** The rule on a test date: refused when its day is after `latestDay`. Days compare as strings. */
export function testDateTooLate(testDay: string, latestDay: string): boolean {
  return testDay > latestDay;
}

/** The latest test day the records service accepts at `now`: its UTC day + 1. */
export function latestServiceTestDay(now: Date): string {
  return new Date(now.getTime() + 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
}

/** How each side words the rules; the form messages take days already formatted for people. */
export const poolTestValueMessages = {
  /** Any method, a negative value. */
  negative: `A test value cannot be negative (a Ct is between ${CT_MIN} and ${CT_MAX}); check the value`,
  /** A PCR method, a Ct outside the range. */
  ct: (value: number) =>
    `A Ct is between ${CT_MIN} and ${CT_MAX}; ${value} cannot be one — check the value`,
  /** Records service, a test dated after its UTC day + 1. */
  serviceTestDate: (testDay: string, latestDay: string) =>
    `The test date ${testDay} is in the future (the latest accepted today is ${latestDay}); check the date`,
  /** Pool test form, under the test date. */
  formTestDate: (todayShown: string) =>
    `The test date cannot be after today (${todayShown}); check the date`,
};
