/**
 * Contract §6: `surv_year` defaults to the year of `collection_date` as written (the local date
 * of a date-time with offset, not its UTC year).
 */
export function survYearOf(date: string): number {
  return Number(date.slice(0, 4));
}
