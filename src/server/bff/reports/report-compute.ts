import {
  abundanceAnomalyReport,
  abundanceReport,
  infectionRateReport,
  vectorIndexReport,
  type Report,
} from '#shared/reports';
import type { ReportLists } from './report-list-read';
import type { ReportName, ReportQuery } from './report-query';

/**
 * One report on an agency's lists, as the shared module computes it, with `season` as the year
 * when none is asked for (the shared module has no clock). Throws ReportRowBudgetExceeded
 * before building any row when the report would have more than `rowBudget` rows.
 */
export function computeReport(
  name: ReportName,
  lists: ReportLists,
  q: ReportQuery,
  season: number,
  rowBudget: number,
): Report {
  const { format: _format, year, target_year, ...params } = q;
  const common = { ...params, rowBudget };
  switch (name) {
    case 'abundance':
      return abundanceReport(lists.collections, { ...common, year: year ?? [season] });
    case 'abundance-anomaly':
      return abundanceAnomalyReport(lists.collections, {
        ...common,
        target_year: target_year ?? season,
      });
    case 'infection-rate':
      return infectionRateReport(lists.pools, { ...common, year: year ?? [season] });
    case 'vector-index':
      return vectorIndexReport(lists.collections, lists.pools, {
        ...common,
        year: year ?? [season],
      });
  }
}
