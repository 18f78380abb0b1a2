import type { Cell, Interval } from '#shared/reports';

export const MONTHS = [
  'Jan',
  'Feb',
  'Mar',
  'Apr',
  'May',
  'Jun',
  'Jul',
  'Aug',
  'Sep',
  'Oct',
  'Nov',
  'Dec',
];

/** The last MMWR week a season can have. */
const LAST_WEEK = 53;

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
export function periodLabel(interval: Interval, value: Cell | undefined): string {
  if (value === null || value === undefined) return '—';
  const n = Number(value);
  if (interval === 'Biweek' && Number.isInteger(n)) return biweekWeeks(n);
  if (interval === 'Month' && Number.isInteger(n)) return MONTHS[n - 1] ?? String(value);
  return String(value);
}

/** The axis title of an interval. */
export const PERIOD_AXIS: Record<Interval, string> = {
  Week: 'MMWR week',
  Biweek: 'MMWR weeks',
  Month: 'Month',
  CollectionDate: 'Collection date',
};
