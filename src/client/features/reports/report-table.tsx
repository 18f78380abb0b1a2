import type { Cell, Interval } from '#shared/reports';
import type { ReportRow } from './fetch-report';
import { formatFigure, formatPercentChange } from './format-figure';
import { periodLabel } from './period-label';

/**
 * Column headers in words, with their units; the CSV keeps vectorsurvR's names (shown as a
 * tooltip). The infection rate and the vector index are per 1,000 (the BFF's scale, spec
 * "Vector index"): the CDC vector index beside them is per trap night, the figure a manager
 * compares with the CDC thresholds (near 0.5).
 */
const HEADERS: Record<string, string> = {
  Week: 'MMWR week',
  Biweek: 'MMWR weeks',
  CollectionDate: 'Collection date',
  TrapEvents: 'Trap nights',
  Abundance: 'Per trap night',
  FiveYearAvg: 'Five-year average',
  YearsInAverage: 'Years in average',
  Delta: 'vs average (%)',
  InfectionRate: 'Infection rate per 1,000',
  CI: '95% CI per 1,000',
  VectorIndex: 'Vector index per 1,000',
  CDCVectorIndex: 'CDC vector index, all species',
};

const INTERVAL_COLUMNS: readonly Interval[] = ['Week', 'Biweek', 'Month', 'CollectionDate'];
const LABEL_COLUMNS = ['Year', ...INTERVAL_COLUMNS, 'Species', 'Trap', 'Agency', 'YearsInAverage'];
const isFigure = (column: string) => !LABEL_COLUMNS.includes(column);
const isInterval = (column: string): column is Interval =>
  (INTERVAL_COLUMNS as readonly string[]).includes(column);

/**
 * The columns shown: the report's own, with its interval's bounds in one "95% CI" column (the
 * portrait table has no room for two, and the pair reads as one range).
 */
function shownColumns(row: ReportRow | undefined): string[] {
  if (!row) return [];
  const out: string[] = [];
  for (const c of Object.keys(row)) {
    if (c === 'LowerCI') out.push('CI');
    else if (c !== 'UpperCI') out.push(c);
  }
  return out;
}

function formatNumber(value: Cell | undefined): string {
  return typeof value === 'number' ? formatFigure(value) : '—';
}

/**
 * A cell as a person reads it: figures rounded (format-figure.ts), periods labelled as the chart
 * labels them, the averaged years with a space after each comma; a dash for none.
 */
function formatCell(row: ReportRow, column: string): string {
  if (column === 'CI') {
    const lo = row.LowerCI;
    const hi = row.UpperCI;
    if (typeof lo !== 'number' || typeof hi !== 'number') return '—';
    return `${formatFigure(lo)}–${formatFigure(hi)}`;
  }
  const value = row[column];
  if (value === null || value === undefined) return '—';
  if (isInterval(column)) return periodLabel(column, value);
  if (typeof value === 'number') {
    if (!isFigure(column)) return String(value);
    return column === 'Delta' ? formatPercentChange(value) : formatNumber(value);
  }
  if (column === 'YearsInAverage') return value.split(',').join(', ');
  return value === '' ? '(none)' : value;
}

/** Every figure of the report: the chart's accessible version and the numbers to act on. */
export function ReportTable({ rows, caption }: { rows: ReportRow[]; caption: string }) {
  const columns = shownColumns(rows[0]);
  return (
    <div className="report-table-wrap" tabIndex={0} role="region" aria-label="Report table">
      <table className="table report-table">
        <caption>{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th
                key={c}
                scope="col"
                title={c === 'CI' ? 'LowerCI, UpperCI' : c}
                className={isFigure(c) ? 'num' : `label-${c}`}
              >
                {HEADERS[c] ?? c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => (
            <tr key={i}>
              {columns.map((c) => (
                <td key={c} className={isFigure(c) ? 'num' : `label-${c}`}>
                  {formatCell(r, c)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
