import {
  abundanceGroups,
  trapEventYears,
  ABUNDANCE_FIGURES,
  type AbundanceGroup,
} from './abundance';
import { exactMean } from './exact-mean';
import type { ReportCollection } from './report-collection';
import { entryOf, toReport, type Group } from './report-groups';
import type { AbundanceAnomalyParams, AbundanceAnomalyRow, Report } from './report-params';
import { rRound } from './r-round';

/** Earlier years averaged at most (vectorsurvR takes the target year and 5 before it). */
const EARLIER_YEARS = 5;

/**
 * `GET /api/reports/abundance-anomaly`, as vectorsurvR 1.6.3's `getAbundanceAnomaly`
 * (R/getAbundanceAnomaly.R): abundance of `target_year` against the mean of the same interval
 * and group over up to five most recent earlier years that had trap events (not necessarily
 * consecutive). Years after the target are ignored. The abundance is computed on the target and
 * chosen years only, so the default species list is theirs (R filters the data to those years
 * before `getAbundance`).
 *
 * FiveYearAvg = mean of those years' rounded Abundance for the group (only years whose group had
 * trap events enter it, R's grouped mean); YearsInAverage the years, ascending, comma-separated;
 * Delta = round((Abundance − FiveYearAvg) / FiveYearAvg, 4) × 100. All three are null with no
 * earlier year; Delta is null too where R's is not finite (an average of 0), which JSON cannot
 * carry. `CollectionDate` intervals are matched by month and day. No trap events in the target
 * year gives no rows.
 *
 * Where this departs from vectorsurvR, on the spec's word: R picks the years among all years
 * present in the data, so a year whose every collection is dropped (trap problem, 0 trap nights)
 * takes a place and averages nothing; here only years with trap events are counted.
 */
export function abundanceAnomalyReport(
  collections: readonly ReportCollection[],
  params: AbundanceAnomalyParams,
): Report<AbundanceAnomalyRow> {
  const interval = params.interval ?? 'Week';
  const target = params.target_year;
  const upToTarget = collections.filter((c) => c.surv_year != null && c.surv_year <= target);
  const eventYears = trapEventYears(upToTarget, { ...params, separate_by: [] }) as Set<number>;
  const earlier = [...eventYears].filter((y) => y < target).sort((a, b) => b - a);
  const years = [target, ...earlier.slice(0, EARLIER_YEARS)];
  const { labels, groups } = abundanceGroups(upToTarget, { ...params, year: years });

  // Groups match across years on interval (month-day for dates) and labels.
  const matchKey = (g: Group) => {
    const at =
      interval === 'CollectionDate' && typeof g.interval === 'string'
        ? g.interval.slice(5)
        : g.interval;
    return JSON.stringify([at, ...g.labels]);
  };
  const history = new Map<string, { values: number[]; years: Set<number> }>();
  for (const g of groups) {
    if (g.year === target) continue;
    const entry = entryOf(history, matchKey(g), () => ({ values: [], years: new Set<number>() }));
    entry.values.push(g.abundance);
    entry.years.add(g.year as number);
  }

  const anomaly = (g: AbundanceGroup) => {
    const past = history.get(matchKey(g));
    const average = past ? exactMean(past.values) : null;
    const delta = average === null ? null : rRound((g.abundance - average) / average, 4) * 100;
    return {
      Count: g.count,
      TrapEvents: g.trapEvents,
      Abundance: g.abundance,
      FiveYearAvg: average,
      YearsInAverage: past ? [...past.years].sort((a, b) => a - b).join(',') : null,
      Delta: delta !== null && Number.isFinite(delta) ? delta : null,
    };
  };
  const targetGroups = groups.filter((g) => g.year === target);
  return toReport(
    interval,
    labels,
    targetGroups,
    [...ABUNDANCE_FIGURES, 'FiveYearAvg', 'YearsInAverage', 'Delta'],
    anomaly,
  );
}
