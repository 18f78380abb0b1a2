import type { Cell } from '#shared/reports';
import type { ReportRow } from './fetch-report';

/** Column headers in words; the CSV keeps vectorsurvR's names (shown as a tooltip). */
const HEADERS: Record<string, string> = {
  Biweek: 'Two weeks',
  CollectionDate: 'Collection date',
  TrapEvents: 'Trap nights',
  Abundance: 'Per trap night',
  FiveYearAvg: 'Five-year average',
  YearsInAverage: 'Years in average',
  Delta: 'vs average (%)',
  InfectionRate: 'Infection rate',
  LowerCI: 'Lower 95% CI',
  UpperCI: 'Upper 95% CI',
  VectorIndex: 'Vector index',
  CDCVectorIndex: 'CDC vector index',
};

const LABEL_COLUMNS = [
  'Year',
  'Week',
  'Biweek',
  'Month',
  'CollectionDate',
  'Species',
  'Trap',
  'Agency',
  'YearsInAverage',
];
const isFigure = (column: string) => !LABEL_COLUMNS.includes(column);

/**
 * A cell as a person reads it: figures with at most four decimals (two significant digits for a
 * figure smaller than that, never 0) and grouped digits, labels (a year, a week) as they are,
 * the averaged years with a space after each comma; a dash for none.
 */
function formatCell(value: Cell | undefined, column: string): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'number') {
    if (!isFigure(column)) return String(value);
    let text = value.toLocaleString('en-US', { maximumFractionDigits: 4 });
    // A positive figure below four decimals (an early-season CDC vector index) must not read as
    // 0, "no virus": it keeps two significant digits.
    if (value !== 0 && Number(text) === 0)
      text = value.toLocaleString('en-US', { maximumSignificantDigits: 2 });
    // Above the average reads as such: +233.33, not 233.33 beside -15.56.
    return column === 'Delta' && value > 0 ? `+${text}` : text;
  }
  if (column === 'YearsInAverage') return value.split(',').join(', ');
  return value === '' ? '(none)' : value;
}

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
                  {formatCell(r[c], c)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
