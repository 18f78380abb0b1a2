import { mmwrWeek } from './mmwr-week';
import type { Interval } from './report-params';

const YMD = /^\d{4}-\d{2}-\d{2}/;

/**
 * The interval a date falls in: `Week` the MMWR week, `Biweek` ceiling(week / 2), `Month` the
 * calendar month, `CollectionDate` the `YYYY-MM-DD` itself. Only the date's leading
 * `YYYY-MM-DD` is read (R's `as.Date` on the listed string). Null without a date.
 */
export function intervalOf(
  date: string | null | undefined,
  interval: Interval,
): number | string | null {
  const ymd = date == null ? null : YMD.exec(date)?.[0];
  if (ymd == null) return null;
  switch (interval) {
    case 'CollectionDate':
      return ymd;
    case 'Month':
      return Number(ymd.slice(5, 7));
    case 'Biweek':
      return Math.ceil((mmwrWeek(ymd) as number) / 2);
    default:
      return mmwrWeek(ymd);
  }
}
