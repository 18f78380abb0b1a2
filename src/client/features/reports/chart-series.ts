import type { Cell, Interval } from '#shared/reports';
import type { ReportRow } from './fetch-report';
import type { ReportKind } from './report-choice';

export type ChartPoint = { y: number; lo?: number; hi?: number };
export type ChartSeries = {
  name: string;
  /** Index into the palette: a species keeps its colour on its average line. */
  colour: number;
  dashed: boolean;
  /** One per category; null where the report has no figure. */
  points: (ChartPoint | null)[];
};
export type ChartData = {
  /** The x axis: interval values in order, as labels. */
  categories: string[];
  series: ChartSeries[];
  /** Groups left out of the chart to keep it readable (the table has them all). */
  hidden: number;
  /** What the y axis measures. */
  measure: string;
};

/** Line groups drawn at most; the rest are in the table. */
export const MAX_GROUPS = 6;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const MEASURES: Record<ReportKind, string> = {
  'abundance-anomaly': 'Mosquitoes per trap night',
  abundance: 'Mosquitoes per trap night',
  'infection-rate': 'Infection rate per 1,000',
  'vector-index': 'Vector index',
};

const num = (v: Cell | undefined): number | null =>
  typeof v === 'number' && Number.isFinite(v) ? v : null;

/**
 * The x position of a row: its interval value. Dates by month and day within their season, so
 * seasons line up: a date of the calendar year after its season's (surv_year; 2 January counted
 * in the season before) comes after the season's own dates and never shares the point of the
 * same month and day of the season's own January.
 */
function categoryOf(row: ReportRow, interval: Interval): { key: string; label: string } {
  const v = row[interval];
  if (interval === 'CollectionDate') {
    const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(String(v ?? ''));
    if (!m) return { key: String(v), label: String(v) };
    const season = typeof row.Year === 'number' ? row.Year : Number(m[1]);
    const years = Math.max(-1, Math.min(1, Number(m[1]) - season)); // -1, 0 or +1: key order
    const day = `${MONTHS[Number(m[2]) - 1]} ${Number(m[3])}`;
    const label = years === 0 ? day : `${day}, ${years > 0 ? 'next' : 'previous'} year`;
    return { key: `${years + 1}-${m[2]}-${m[3]}`, label };
  }
  const n = Number(v);
  const key = String(n).padStart(3, '0');
  return { key, label: interval === 'Month' ? (MONTHS[n - 1] ?? String(v)) : String(v) };
}

function groupName(row: ReportRow, manyYears: boolean): string {
  const labels = (['Species', 'Trap', 'Agency'] as const)
    .filter((k) => k in row)
    .map((k) => (row[k] === null || row[k] === '' ? '(none)' : String(row[k])));
  if (manyYears) labels.push(String(row.Year));
  return labels.join(' · ') || 'All species';
}

/**
 * A report's rows → the lines of its chart. One group per separated label (and season, when
 * several are shown); the anomaly report adds each group's five-year average as a dashed line;
 * the infection rate carries its interval. The biggest groups are drawn first.
 */
export function chartSeries(kind: ReportKind, rows: ReportRow[], interval: Interval): ChartData {
  const manyYears = new Set(rows.map((r) => r.Year)).size > 1;
  const categories = new Map<string, string>();
  for (const r of rows) {
    const c = categoryOf(r, interval);
    categories.set(c.key, c.label);
  }
  const keys = [...categories.keys()].sort();
  const at = new Map(keys.map((k, i) => [k, i]));

  const groups = new Map<string, { main: (ChartPoint | null)[]; avg: (ChartPoint | null)[] }>();
  for (const r of rows) {
    const name = groupName(r, manyYears);
    let g = groups.get(name);
    if (!g) {
      g = { main: keys.map(() => null), avg: keys.map(() => null) };
      groups.set(name, g);
    }
    const i = at.get(categoryOf(r, interval).key) ?? 0;
    if (kind === 'infection-rate') {
      const y = num(r.InfectionRate);
      if (y !== null) g.main[i] = { y, lo: num(r.LowerCI) ?? y, hi: num(r.UpperCI) ?? y };
    } else {
      const y = num(kind === 'vector-index' ? r.VectorIndex : r.Abundance);
      if (y !== null) g.main[i] = { y };
      const avg = num(r.FiveYearAvg);
      if (kind === 'abundance-anomaly' && avg !== null) g.avg[i] = { y: avg };
    }
  }
  const peak = (pts: (ChartPoint | null)[]) => Math.max(0, ...pts.map((p) => p?.y ?? 0));
  const ranked = [...groups.entries()].sort(
    (a, b) => peak(b[1].main) - peak(a[1].main) || a[0].localeCompare(b[0]),
  );
  const shown = ranked.slice(0, MAX_GROUPS);
  const series: ChartSeries[] = [];
  shown.forEach(([name, g], colour) => {
    series.push({ name, colour, dashed: false, points: g.main });
    if (kind === 'abundance-anomaly' && g.avg.some((p) => p !== null))
      series.push({ name: `${name}, five-year average`, colour, dashed: true, points: g.avg });
  });
  return {
    categories: keys.map((k) => categories.get(k) ?? k),
    series,
    hidden: ranked.length - shown.length,
    measure: MEASURES[kind],
  };
}

const INTERVAL_WORDS: Record<Interval, string> = {
  Week: 'week',
  Biweek: 'two-week period',
  Month: 'month',
  CollectionDate: 'collection date',
};

/** A sentence for screen readers: what the chart shows and its highest point. */
export function chartSummary(data: ChartData, interval: Interval): string {
  let best: { name: string; y: number; x: string } | null = null;
  for (const s of data.series) {
    if (s.dashed) continue;
    s.points.forEach((p, i) => {
      if (p && (!best || p.y > best.y)) best = { name: s.name, y: p.y, x: data.categories[i] };
    });
  }
  const lines = data.series.filter((s) => !s.dashed).length;
  const head = `${data.measure} by ${INTERVAL_WORDS[interval]}, ${lines} line${lines === 1 ? '' : 's'}`;
  const peak = best as { name: string; y: number; x: string } | null;
  const tail = peak
    ? `; highest ${peak.y} (${peak.name}, ${INTERVAL_WORDS[interval]} ${peak.x})`
    : '; no figures';
  return `${head}${tail}. The table below lists every figure.`;
}
