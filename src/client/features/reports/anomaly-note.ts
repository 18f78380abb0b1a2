import type { IntlShape } from 'react-intl';
import type { Interval } from '#shared/reports';
import { englishIntl } from '../../lib/i18n';
import type { ReportRow } from './fetch-report';
import type { SeasonsFound } from './seasons-with-data';

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
  intl: IntlShape = englishIntl(),
): string | null {
  const t = intl.formatMessage;
  const missing = rows.filter((r) => r.FiveYearAvg === null || r.FiveYearAvg === undefined);
  if (missing.length === 0) return null;
  if (missing.length < rows.length)
    return t(
      {
        id: 'reports.note.somePeriods',
        defaultMessage:
          '“—”: no earlier season has trap collections in that {period, select, Week {week} Biweek {two-week period} Month {month} other {day of the year}}, so there is nothing to compare with.',
      },
      { period: interval },
    );
  const earlier = found && found.from < target ? found.years.filter((y) => y < target) : null;
  if (found && earlier && earlier.length === 0)
    return t(
      {
        id: 'reports.note.noEarlierSeason',
        defaultMessage:
          'No earlier season ({from}–{last}) has trap collections, so there is no five-year average to compare with yet: the average and change columns show “—”. The average appears once an earlier season has data.',
      },
      { from: String(found.from), last: String(target - 1) },
    );
  const which = earlier ? [...earlier].sort((a, b) => a - b).join(', ') : '';
  return t(
    {
      id: 'reports.note.otherPeriods',
      defaultMessage:
        'The earlier seasons{which, select, none {} other { ({which})}} have no trap collections in these {period, select, Week {weeks} Biweek {two-week periods} Month {months} other {days of the year}}, so there is no average to compare with: “—”.',
    },
    { which: which || 'none', period: interval },
  );
}
