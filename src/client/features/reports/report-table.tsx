import type { Cell } from '../../../shared/reports';
import type { ReportRow } from './fetch-report';

/** Column headers in words; the CSV keeps vectorsurvR's names (shown as a tooltip). */
const HEADERS: Record<string, string> = {
  Biweek: 'Two weeks',
  CollectionDate: 'Collection date',
  TrapEvents: 'Trap nights × traps',
  Abundance: 'Per trap night',
  FiveYearAvg: 'Five-year average',
  YearsInAverage: 'Years in average',
  Delta: 'Change from average (%)',
  InfectionRate: 'Infection rate',
  LowerCI: 'Lower 95% CI',
  UpperCI: 'Upper 95% CI',
  VectorIndex: 'Vector index',
  CDCVectorIndex: 'CDC vector index',
};

/** Figures as a person reads them: at most four decimals, digits grouped; empty for none. */
export function formatCell(value: Cell | undefined): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'number') return value.toLocaleString('en-US', { maximumFractionDigits: 4 });
  return value === '' ? '(none)' : value;
}

const isFigure = (column: string) =>
  ![
    'Year',
    'Week',
    'Biweek',
    'Month',
    'CollectionDate',
    'Species',
    'Trap',
    'Agency',
    'YearsInAverage',
  ].includes(column);

/** Every figure of the report: the chart's accessible version and the numbers to act on. */
export function ReportTable({ rows, caption }: { rows: ReportRow[]; caption: string }) {
  const columns = rows.length ? Object.keys(rows[0]) : [];
  return (
    <div className="report-table-wrap" tabIndex={0} role="region" aria-label="Report table">
      <table className="table report-table">
        <caption>{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c} scope="col" title={c} className={isFigure(c) ? 'num' : undefined}>
                {HEADERS[c] ?? c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => (
            <tr key={i}>
              {columns.map((c) => (
                <td key={c} className={isFigure(c) ? 'num' : undefined}>
                  {formatCell(r[c])}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
