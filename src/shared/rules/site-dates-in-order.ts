/** What a person is told when a site stops being used before it started. */
export const SITE_DATES_MESSAGE = 'The deactive date is before the active date';

/**
 * A site stops being used after it started: `deactive_date` on or after `active_date` (both as
 * ISO dates or date-times; a missing one never conflicts). The records service and the site
 * import decide it here.
 */
export function siteDatesInOrder(
  activeDate: string | null | undefined,
  deactiveDate: string | null | undefined,
): boolean {
  if (typeof activeDate !== 'string' || typeof deactiveDate !== 'string') return true;
  return !(Date.parse(deactiveDate) < Date.parse(activeDate));
}
