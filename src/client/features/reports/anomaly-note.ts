import type { Interval } from '#shared/reports';
import type { ReportRow } from './fetch-report';
import type { SeasonsFound } from './seasons-with-data';

const PERIODS: Record<Interval, { one: string; many: string }> = {
  Week: { one: 'week', many: 'weeks' },
  Biweek: { one: 'two-week period', many: 'two-week periods' },
  Month: { one: 'month', many: 'months' },
  CollectionDate: { one: 'day of the year', many: 'days of the year' },
};

/**
 * Why the anomaly report's average is "—", in words: a district in its first season saw "—"
 * everywhere with no reason. Null when every row has its average.
 * - every row without one: no earlier season with data at all (among those looked at), or the
 *   earlier seasons trapped in other periods only;
 * - some rows without one: those periods were not trapped in any earlier season.
 */
export function anomalyNote(
  rows: ReportRow[],
  target: number,
  interval: Interval,
  found: SeasonsFound | undefined,
): string | null {
  const missing = rows.filter((r) => r.FiveYearAvg === null || r.FiveYearAvg === undefined);
  if (missing.length === 0) return null;
  const period = PERIODS[interval];
  if (missing.length < rows.length)
    return `“—”: no earlier season has trap collections in that ${period.one}, so there is nothing to compare with.`;
  const earlier = found && found.from < target ? found.years.filter((y) => y < target) : null;
  if (earlier && earlier.length === 0)
    return (
      `No earlier season (${found!.from}–${target - 1}) has trap collections, so there is no ` +
      'five-year average to compare with yet: the average and change columns show “—”. ' +
      'The average appears once an earlier season has data.'
    );
  const which = earlier ? ` (${[...earlier].sort((a, b) => a - b).join(', ')})` : '';
  return `The earlier seasons${which} have no trap collections in these ${period.many}, so there is no average to compare with: “—”.`;
}
