import type { IntlShape } from 'react-intl';
import type { Cell, Interval } from '#shared/reports';
import { useI18n } from '../../lib/i18n';
import type { ReportRow } from './fetch-report';
import { formatFigure, formatPercentChange } from './format-figure';
import { periodAxis, periodLabel } from './period-label';

/**
 * Column headers in words, with their units; the CSV keeps vectorsurvR's names (shown as a
 * tooltip). The infection rate and the vector index are per 1,000 (the BFF's scale, spec
 * "Vector index"): the CDC vector index beside them is per trap night, the figure a manager
 * compares with the CDC thresholds (near 0.5).
 */
function header(intl: IntlShape, column: string): string {
  const t = intl.formatMessage;
  switch (column) {
    case 'Year':
      return t({ id: 'reports.column.year', defaultMessage: 'Year' });
    // An interval's column is headed as the chart's axis is titled.
    case 'Week':
    case 'Biweek':
    case 'Month':
    case 'CollectionDate':
      return periodAxis(intl, column);
    case 'Species':
      return t({ id: 'reports.picker.species', defaultMessage: 'Species' });
    case 'Trap':
      return t({ id: 'reports.column.trap', defaultMessage: 'Trap' });
    case 'Agency':
      return t({ id: 'reports.column.agency', defaultMessage: 'Agency' });
    case 'Count':
      return t({ id: 'reports.column.count', defaultMessage: 'Count' });
    case 'TrapEvents':
      return t({ id: 'reports.column.trapNights', defaultMessage: 'Trap nights' });
    case 'Abundance':
      return t({ id: 'reports.column.abundance', defaultMessage: 'Per trap night' });
    case 'FiveYearAvg':
      return t({ id: 'reports.column.fiveYearAvg', defaultMessage: 'Five-year average' });
    case 'YearsInAverage':
      return t({ id: 'reports.column.yearsInAverage', defaultMessage: 'Years in average' });
    case 'Delta':
      return t({ id: 'reports.column.delta', defaultMessage: 'vs average (%)' });
    case 'InfectionRate':
      return t({ id: 'reports.column.infectionRate', defaultMessage: 'Infection rate per 1,000' });
    case 'CI':
      return t({ id: 'reports.column.ci', defaultMessage: '95% CI per 1,000' });
    case 'VectorIndex':
      return t({ id: 'reports.column.vectorIndex', defaultMessage: 'Vector index per 1,000' });
    case 'CDCVectorIndex':
      return t({ id: 'reports.column.cdc', defaultMessage: 'CDC vector index, all species' });
    case 'Pools':
      return t({ id: 'reports.column.pools', defaultMessage: 'Pools' });
    case 'Positives':
      return t({ id: 'reports.column.positives', defaultMessage: 'Positive pools' });
    default:
      return column;
  }
}

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

function formatNumber(value: Cell | undefined, intl: IntlShape): string {
  return typeof value === 'number' ? formatFigure(value, intl) : '—';
}

/**
 * A cell as a person reads it: figures rounded (format-figure.ts), periods labelled as the chart
 * labels them, the averaged years with a space after each comma; a dash for none.
 */
function formatCell(row: ReportRow, column: string, intl: IntlShape): string {
  if (column === 'CI') {
    const lo = row.LowerCI;
    const hi = row.UpperCI;
    if (typeof lo !== 'number' || typeof hi !== 'number') return '—';
    return `${formatFigure(lo, intl)}–${formatFigure(hi, intl)}`;
  }
  const value = row[column];
  if (value === null || value === undefined) return '—';
  if (isInterval(column)) return periodLabel(column, value, intl);
  if (typeof value === 'number') {
    if (!isFigure(column)) return String(value);
    return column === 'Delta' ? formatPercentChange(value, intl) : formatNumber(value, intl);
  }
  if (column === 'YearsInAverage') return value.split(',').join(', ');
  return value === ''
    ? intl.formatMessage({ id: 'reports.none', defaultMessage: '(none)' })
    : value;
}

/** Every figure of the report: the chart's accessible version and the numbers to act on. */
export function ReportTable({ rows, caption }: { rows: ReportRow[]; caption: string }) {
  const intl = useI18n();
  const columns = shownColumns(rows[0]);
  return (
    <div
      className="report-table-wrap"
      tabIndex={0}
      role="region"
      aria-label={intl.formatMessage({ id: 'reports.table', defaultMessage: 'Report table' })}
    >
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
                {header(intl, c)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => (
            <tr key={i}>
              {columns.map((c) => (
                <td key={c} className={isFigure(c) ? 'num' : `label-${c}`}>
                  {formatCell(r, c, intl)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
