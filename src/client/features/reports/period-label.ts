import type { IntlShape } from 'react-intl';
import type { Cell, Interval } from '#shared/reports';
import { englishIntl } from '../../lib/i18n';

/** The last MMWR week a season can have. */
const LAST_WEEK = 53;

/** A month's short name in the person's language ("Jul", "jul"), by its number (1–12). */
export function monthName(intl: IntlShape, month: number): string {
  // Noon on the 15th, in UTC and formatted in UTC: the same month whatever the tablet's zone.
  return intl.formatDate(Date.UTC(2001, month - 1, 15, 12), { month: 'short', timeZone: 'UTC' });
}

/** "Jul 8", "8 jul": a day of a season by its month and day, in the person's language. */
export function dayOfYear(intl: IntlShape, month: number, day: number): string {
  return intl.formatDate(Date.UTC(2001, month - 1, day, 12), {
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  });
}

/**
 * The MMWR weeks of a two-week period (spec: Biweek = ceiling(Week / 2)): period 22 is weeks
 * 43–44, so it reads on the weekly view's scale; period 27 is week 53 alone.
 */
export function biweekWeeks(biweek: number): string {
  const first = 2 * biweek - 1;
  const last = Math.min(2 * biweek, LAST_WEEK);
  return first >= last ? String(first) : `${first}–${last}`;
}

/**
 * An interval value as the table and the chart both label it: weeks by number, two-week periods
 * by their week range, months by name, dates as they are.
 */
export function periodLabel(
  interval: Interval,
  value: Cell | undefined,
  intl: IntlShape = englishIntl(),
): string {
  if (value === null || value === undefined) return '—';
  const n = Number(value);
  if (interval === 'Biweek' && Number.isInteger(n)) return biweekWeeks(n);
  if (interval === 'Month' && Number.isInteger(n) && n >= 1 && n <= 12) return monthName(intl, n);
  return String(value);
}

/** The axis title of an interval. */
export function periodAxis(intl: IntlShape, interval: Interval): string {
  const t = intl.formatMessage;
  switch (interval) {
    case 'Week':
      return t({ id: 'reports.column.week', defaultMessage: 'MMWR week' });
    case 'Biweek':
      return t({ id: 'reports.column.biweek', defaultMessage: 'MMWR weeks' });
    case 'Month':
      return t({ id: 'reports.interval.month', defaultMessage: 'Month' });
    case 'CollectionDate':
      return t({ id: 'reports.interval.collectionDate', defaultMessage: 'Collection date' });
  }
}
