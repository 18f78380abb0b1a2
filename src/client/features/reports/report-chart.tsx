import type { Interval } from '#shared/reports';
import { chartSummary, type ChartData, type ChartPoint, type ChartSeries } from './chart-series';
import { useI18n } from '../../lib/i18n';
import { formatFigure } from './format-figure';
import { periodAxis } from './period-label';
import type { Marker } from './series-style';

/**
 * The report's chart, drawn as SVG: no chart library (uplot would add ~20 KiB gzip and a
 * canvas, which is neither crisp when zoomed nor readable by assistive technology). Loaded lazily
 * (see reports-screen.tsx). The SVG is one image with a summary as its name; the table under it
 * is the accessible version of every figure.
 */

const W = 800;
const H = 320;
/** Room on the left for the ticks and the rotated axis title; on the right for a second axis. */
const M = { left: 84, right: 16, rightWithAxis: 76, top: 16, bottom: 44 };
const PLOT_H = H - M.top - M.bottom;

/** 1, 2 or 5 × a power of ten: the y axis ends on a round number. */
function niceStep(max: number, ticks: number): number {
  const raw = max / ticks;
  const pow = 10 ** Math.floor(Math.log10(raw));
  const m = raw / pow;
  return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * pow;
}

/** A point's mark: the shape tells apart species that share a colour (series-style.ts). */
function Mark({
  shape,
  cx,
  cy,
  stroke,
  hollow,
  className,
}: {
  shape: Marker;
  cx: number;
  cy: number;
  stroke: string;
  hollow: boolean;
  className: string;
}) {
  const paint = { fill: hollow ? '#fff' : stroke, stroke, strokeWidth: 2, className };
  if (shape === 'square') return <rect x={cx - 4.5} y={cy - 4.5} width={9} height={9} {...paint} />;
  if (shape === 'triangle')
    return <path d={`M${cx},${cy - 6}L${cx + 5.5},${cy + 4}L${cx - 5.5},${cy + 4}Z`} {...paint} />;
  return <circle cx={cx} cy={cy} r={hollow ? 5 : 4} {...paint} />;
}

/** The legend's sample of a line: its stroke, dash and mark. */
function LegendSample({ s }: { s: ChartSeries }) {
  return (
    <svg width="40" height="14" aria-hidden="true">
      <line
        x1="2"
        x2="38"
        y1="7"
        y2="7"
        stroke={s.stroke}
        strokeWidth={s.role === 'main' ? 3 : 2}
        strokeDasharray={s.dash}
      />
      <Mark
        shape={s.marker}
        cx={20}
        cy={7}
        stroke={s.stroke}
        hollow={s.role !== 'main'}
        className=""
      />
    </svg>
  );
}

/**
 * The CDC line first, under the species' lines: with one infected species it runs on that
 * species' own points, which must stay visible on top of it.
 */
const drawOrder = (series: ChartSeries[]) => [
  ...series.filter((s) => s.role === 'cdc'),
  ...series.filter((s) => s.role !== 'cdc'),
];

function linePath(
  points: (ChartPoint | null)[],
  x: (i: number) => number,
  y: (v: number) => number,
) {
  let d = '';
  let pen = false;
  points.forEach((p, i) => {
    if (!p) {
      pen = false;
      return;
    }
    d += `${pen ? 'L' : 'M'}${x(i).toFixed(1)},${y(p.y).toFixed(1)}`;
    pen = true;
  });
  return d;
}

export default function ReportChart({ data, interval }: { data: ChartData; interval: Interval }) {
  const intl = useI18n();
  const t = intl.formatMessage;
  // A tick: whole from 100 up, else three significant digits, in the person's digits.
  const fmt = (v: number) =>
    intl.formatNumber(Number(Math.abs(v) >= 100 ? v.toFixed(0) : v.toPrecision(3)), {
      maximumFractionDigits: 20,
      useGrouping: false,
    });
  const n = data.categories.length;
  const right = data.secondAxis ? M.rightWithAxis : M.right;
  const plotW = W - M.left - right;
  const top = Math.max(
    0,
    ...data.series.flatMap((s) => s.points.map((p) => Math.max(p?.hi ?? 0, p?.y ?? 0))),
  );
  const step = niceStep(top > 0 ? top : 1, 4);
  const yMax = Math.max(step, Math.ceil((top > 0 ? top : 1) / step) * step);
  const x = (i: number) => M.left + (n <= 1 ? plotW / 2 : (i * plotW) / (n - 1));
  const y = (v: number) => M.top + PLOT_H - (v / yMax) * PLOT_H;
  const ticks = Array.from({ length: Math.round(yMax / step) + 1 }, (_, i) => i * step);
  // At most ~14 x labels (~9 for week ranges, which are wider): every k-th one, always the first
  // and the last.
  const every = Math.max(1, Math.ceil(n / (interval === 'Biweek' ? 9 : 14)));
  const midY = M.top + PLOT_H / 2;
  return (
    <figure className="report-chart">
      <svg
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-label={chartSummary(data, interval, intl)}
        data-testid="report-chart"
      >
        {ticks.map((tick) => (
          <g key={tick}>
            <line x1={M.left} x2={W - right} y1={y(tick)} y2={y(tick)} className="chart-grid" />
            <text x={M.left - 8} y={y(tick) + 5} textAnchor="end" className="chart-tick">
              {fmt(tick)}
            </text>
            {data.secondAxis ? (
              <text x={W - right + 8} y={y(tick) + 5} textAnchor="start" className="chart-tick">
                {formatFigure(tick / data.secondAxis.per, intl)}
              </text>
            ) : null}
          </g>
        ))}
        <text
          x={18}
          y={midY}
          textAnchor="middle"
          transform={`rotate(-90 18 ${midY})`}
          className="chart-axis"
        >
          {data.measure}
        </text>
        {data.secondAxis ? (
          <text
            x={W - 10}
            y={midY}
            textAnchor="middle"
            transform={`rotate(90 ${W - 10} ${midY})`}
            className="chart-axis"
          >
            {data.secondAxis.title}
          </text>
        ) : null}
        {data.categories.map((c, i) =>
          i % every === 0 || i === n - 1 ? (
            <text key={c} x={x(i)} y={H - M.bottom + 22} textAnchor="middle" className="chart-tick">
              {c}
            </text>
          ) : null,
        )}
        <text x={M.left + plotW / 2} y={H - 4} textAnchor="middle" className="chart-axis">
          {periodAxis(intl, interval)}
        </text>
        {drawOrder(data.series).map((s) => (
          <g key={s.name} data-series={s.name}>
            {s.points.map((p, i) =>
              p && p.lo !== undefined && p.hi !== undefined && p.hi > p.lo ? (
                <g key={i} className="chart-ci" stroke={s.stroke}>
                  <line x1={x(i)} x2={x(i)} y1={y(p.lo)} y2={y(p.hi)} />
                  <line x1={x(i) - 5} x2={x(i) + 5} y1={y(p.lo)} y2={y(p.lo)} />
                  <line x1={x(i) - 5} x2={x(i) + 5} y1={y(p.hi)} y2={y(p.hi)} />
                </g>
              ) : null,
            )}
            <path
              d={linePath(s.points, x, y)}
              fill="none"
              stroke={s.stroke}
              strokeWidth={s.role === 'main' ? 3 : 2}
              strokeDasharray={s.dash}
            />
            {/* Averages and the CDC line get hollow marks: a single week's has no line to draw. */}
            {s.points.map((p, i) =>
              p ? (
                <Mark
                  key={i}
                  shape={s.marker}
                  cx={x(i)}
                  cy={y(p.y)}
                  stroke={s.stroke}
                  hollow={s.role !== 'main'}
                  className={s.role === 'main' ? 'chart-dot' : 'chart-avg-dot'}
                />
              ) : null,
            )}
          </g>
        ))}
        <line x1={M.left} x2={M.left} y1={M.top} y2={M.top + PLOT_H} className="chart-axis-line" />
        {data.secondAxis ? (
          <line
            x1={W - right}
            x2={W - right}
            y1={M.top}
            y2={M.top + PLOT_H}
            className="chart-axis-line"
          />
        ) : null}
        <line
          x1={M.left}
          x2={W - right}
          y1={M.top + PLOT_H}
          y2={M.top + PLOT_H}
          className="chart-axis-line"
        />
      </svg>
      <figcaption>
        {data.secondAxis ? (
          <p className="chart-axes-note">
            {t(
              {
                id: 'reports.chart.axesNote',
                defaultMessage:
                  'Left axis: {measure}, as vectorsurvR reports it. Right axis: the CDC vector index (the same ÷ {per}, infected mosquitoes per trap night), the scale of CDC thresholds.',
              },
              {
                measure: data.measure.toLocaleLowerCase(intl.locale),
                per: formatFigure(data.secondAxis.per, intl),
              },
            )}
          </p>
        ) : (
          <span className="chart-measure">{data.measure}</span>
        )}
        <ul className="chart-legend">
          {data.series.map((s) => (
            <li key={s.name}>
              <LegendSample s={s} />
              {s.name}
            </li>
          ))}
        </ul>
        {data.hidden > 0 ? (
          <p className="muted">
            {t(
              {
                id: 'reports.chart.hidden',
                defaultMessage:
                  '{count, plural, one {# more line is} other {# more lines are}} in the table only, to keep the chart readable.',
              },
              { count: data.hidden },
            )}
          </p>
        ) : null}
      </figcaption>
    </figure>
  );
}
