import type { Interval } from '#shared/reports';
import { chartSummary, type ChartData, type ChartPoint } from './chart-series';

/**
 * The report's chart, drawn as SVG: no chart library (uplot would add ~20 KiB gzip and a
 * canvas, which is neither crisp when zoomed nor readable by assistive technology). Loaded lazily
 * (see reports-screen.tsx). The SVG is one image with a summary as its name; the table under it
 * is the accessible version of every figure.
 */

/** Colour-blind-safe (Okabe–Ito based), each ≥ 3:1 against white as graphics need. */
const PALETTE = ['#0072B2', '#C24E00', '#007A5A', '#7B3294', '#8C510A', '#1F2937'];
const W = 800;
const H = 320;
const M = { left: 64, right: 16, top: 16, bottom: 44 };
const PLOT_W = W - M.left - M.right;
const PLOT_H = H - M.top - M.bottom;

/** 1, 2 or 5 × a power of ten: the y axis ends on a round number. */
function niceStep(max: number, ticks: number): number {
  const raw = max / ticks;
  const pow = 10 ** Math.floor(Math.log10(raw));
  const m = raw / pow;
  return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * pow;
}

const fmt = (v: number) => (Math.abs(v) >= 100 ? v.toFixed(0) : String(Number(v.toPrecision(3))));

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
  const n = data.categories.length;
  const top = Math.max(
    0,
    ...data.series.flatMap((s) => s.points.map((p) => Math.max(p?.hi ?? 0, p?.y ?? 0))),
  );
  const step = niceStep(top > 0 ? top : 1, 4);
  const yMax = Math.max(step, Math.ceil((top > 0 ? top : 1) / step) * step);
  const x = (i: number) => M.left + (n <= 1 ? PLOT_W / 2 : (i * PLOT_W) / (n - 1));
  const y = (v: number) => M.top + PLOT_H - (v / yMax) * PLOT_H;
  const ticks = Array.from({ length: Math.round(yMax / step) + 1 }, (_, i) => i * step);
  // At most ~14 x labels: every k-th one, always the first and the last.
  const every = Math.max(1, Math.ceil(n / 14));
  return (
    <figure className="report-chart">
      <svg
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-label={chartSummary(data, interval)}
        data-testid="report-chart"
      >
        {ticks.map((t) => (
          <g key={t}>
            <line x1={M.left} x2={W - M.right} y1={y(t)} y2={y(t)} className="chart-grid" />
            <text x={M.left - 8} y={y(t) + 5} textAnchor="end" className="chart-tick">
              {fmt(t)}
            </text>
          </g>
        ))}
        {data.categories.map((c, i) =>
          i % every === 0 || i === n - 1 ? (
            <text key={c} x={x(i)} y={H - M.bottom + 22} textAnchor="middle" className="chart-tick">
              {c}
            </text>
          ) : null,
        )}
        <text x={M.left + PLOT_W / 2} y={H - 4} textAnchor="middle" className="chart-axis">
          {interval === 'CollectionDate' ? 'Collection date' : interval}
        </text>
        {data.series.map((s) => {
          const colour = PALETTE[s.colour % PALETTE.length];
          return (
            <g key={s.name} data-series={s.name}>
              {s.points.map((p, i) =>
                p && p.lo !== undefined && p.hi !== undefined && p.hi > p.lo ? (
                  <g key={i} className="chart-ci" stroke={colour}>
                    <line x1={x(i)} x2={x(i)} y1={y(p.lo)} y2={y(p.hi)} />
                    <line x1={x(i) - 5} x2={x(i) + 5} y1={y(p.lo)} y2={y(p.lo)} />
                    <line x1={x(i) - 5} x2={x(i) + 5} y1={y(p.hi)} y2={y(p.hi)} />
                  </g>
                ) : null,
              )}
              <path
                d={linePath(s.points, x, y)}
                fill="none"
                stroke={colour}
                strokeWidth={s.dashed ? 2 : 3}
                strokeDasharray={s.dashed ? '7 5' : undefined}
              />
              {/* Averages get hollow marks: a single week's average has no line to draw. */}
              {s.points.map((p, i) =>
                p ? (
                  <circle
                    key={i}
                    cx={x(i)}
                    cy={y(p.y)}
                    r={s.dashed ? 5 : 4}
                    fill={s.dashed ? '#fff' : colour}
                    stroke={colour}
                    strokeWidth={2}
                    className={s.dashed ? 'chart-avg-dot' : 'chart-dot'}
                  />
                ) : null,
              )}
            </g>
          );
        })}
        <line x1={M.left} x2={M.left} y1={M.top} y2={M.top + PLOT_H} className="chart-axis-line" />
        <line
          x1={M.left}
          x2={W - M.right}
          y1={M.top + PLOT_H}
          y2={M.top + PLOT_H}
          className="chart-axis-line"
        />
      </svg>
      <figcaption>
        <span className="chart-measure">{data.measure}</span>
        <ul className="chart-legend">
          {data.series.map((s) => (
            <li key={s.name}>
              <svg width="32" height="12" aria-hidden="true">
                <line
                  x1="2"
                  x2="30"
                  y1="6"
                  y2="6"
                  stroke={PALETTE[s.colour % PALETTE.length]}
                  strokeWidth={s.dashed ? 2 : 4}
                  strokeDasharray={s.dashed ? '6 4' : undefined}
                />
              </svg>
              {s.name}
            </li>
          ))}
        </ul>
        {data.hidden > 0 ? (
          <p className="muted">
            {data.hidden} more {data.hidden === 1 ? 'line is' : 'lines are'} in the table only, to
            keep the chart readable.
          </p>
        ) : null}
      </figcaption>
    </figure>
  );
}
