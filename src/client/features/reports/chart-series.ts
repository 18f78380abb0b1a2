import type { Cell, Interval } from '#shared/reports';
import type { ReportRow } from './fetch-report';
import { formatFigure } from './format-figure';
import { MONTHS, periodLabel } from './period-label';
import type { ReportKind } from './report-choice';
import {
  ALL_SPECIES_STYLE,
  SEASON_DASHES,
  seasonStyle,
  speciesStyle,
  type LineStyle,
  type Marker,
} from './series-style';

export type ChartPoint = { y: number; lo?: number; hi?: number };
export type ChartSeries = {
  name: string;
  /** A report's figure, a group's five-year average, or the CDC vector index over species. */
  role: 'main' | 'average' | 'cdc';
  /** Stable per species or season (series-style.ts); an average shares its group's. */
  stroke: string;
  marker: Marker;
  /** SVG stroke-dasharray: averages, the CDC line and older seasons; none for a solid line. */
  dash?: string;
  /** One per category; null where the report has no figure. */
  points: (ChartPoint | null)[];
};
export type ChartData = {
  /** The x axis: interval values in order, as labels. */
  categories: string[];
  series: ChartSeries[];
  /** Groups left out of the chart to keep it readable (the table has them all). */
  hidden: number;
  /** What the y axis measures, with its unit. */
  measure: string;
  /**
   * A second y axis on the right reading the same grid in other units (left ÷ `per`): the CDC
   * vector index beside the vector index per 1,000.
   */
  secondAxis: { title: string; per: number } | null;
};

/** Line groups drawn at most; the rest are in the table. */
export const MAX_GROUPS = 6;
/** The BFF's infection-rate scale (the screen never asks for another): figures per 1,000. */
export const RATE_SCALE = 1000;

const MEASURES: Record<ReportKind, string> = {
  'abundance-anomaly': 'Mosquitoes per trap night',
  abundance: 'Mosquitoes per trap night',
  'infection-rate': 'Infection rate per 1,000',
  'vector-index': 'Vector index per 1,000',
};
export const CDC_LINE = 'CDC vector index, all species';
const AVERAGE_DASH = '7 5';
const CDC_DASH = '3 3';

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
  const key = String(Number(v)).padStart(3, '0');
  return { key, label: periodLabel(interval, v) };
}

type Group = {
  main: (ChartPoint | null)[];
  avg: (ChartPoint | null)[];
  style: LineStyle;
  /** 0 for the newest season shown, 1 for the one before… (the line's dash). */
  seasonRank: number;
  /** Styled by its season (all species together), so its dash need not tell seasons apart. */
  bySeason: boolean;
};

function groupName(row: ReportRow, manyYears: boolean): string {
  const labels = (['Species', 'Trap', 'Agency'] as const)
    .filter((k) => k in row)
    .map((k) => (row[k] === null || row[k] === '' ? '(none)' : String(row[k])));
  if (manyYears) labels.push(String(row.Year));
  return labels.join(' · ') || 'All species';
}

/** A group's look: its species', else its trap's or agency's, else its season's. */
function groupStyle(
  row: ReportRow,
  manyYears: boolean,
  speciesOrder: readonly string[],
): { style: LineStyle; bySeason: boolean } {
  const label = (['Species', 'Trap', 'Agency'] as const).find((k) => k in row);
  if (label === 'Species')
    return { style: speciesStyle(String(row.Species), speciesOrder), bySeason: false };
  if (label) return { style: speciesStyle(String(row[label]), []), bySeason: false };
  if (manyYears && typeof row.Year === 'number')
    return { style: seasonStyle(row.Year), bySeason: true };
  return { style: ALL_SPECIES_STYLE, bySeason: false };
}

/**
 * A report's rows → the lines of its chart. One group per separated label (and season, when
 * several are shown); the anomaly report adds each group's five-year average as a dashed line;
 * the infection rate carries its interval; the vector index by species adds the CDC vector index
 * (summed over species, per trap night), drawn ×1,000 on the same grid and read on a second axis.
 * The biggest groups are drawn first; each keeps the look of its species (series-style.ts).
 */
export function chartSeries(
  kind: ReportKind,
  rows: ReportRow[],
  interval: Interval,
  speciesOrder: readonly string[],
): ChartData {
  const years = [...new Set(rows.map((r) => r.Year))].sort().reverse();
  const manyYears = years.length > 1;
  const categories = new Map<string, string>();
  for (const r of rows) {
    const c = categoryOf(r, interval);
    categories.set(c.key, c.label);
  }
  const keys = [...categories.keys()].sort();
  const at = new Map(keys.map((k, i) => [k, i]));
  const empty = () => keys.map((): ChartPoint | null => null);

  const groups = new Map<string, Group>();
  const cdc = new Map<string, (ChartPoint | null)[]>();
  for (const r of rows) {
    const name = groupName(r, manyYears);
    let g = groups.get(name);
    if (!g) {
      g = {
        main: empty(),
        avg: empty(),
        seasonRank: years.indexOf(r.Year),
        ...groupStyle(r, manyYears, speciesOrder),
      };
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
      const total = num(r.CDCVectorIndex);
      if (kind === 'vector-index' && total !== null) {
        const line = manyYears ? `${CDC_LINE} · ${String(r.Year)}` : CDC_LINE;
        if (!cdc.has(line)) cdc.set(line, empty());
        (cdc.get(line) as (ChartPoint | null)[])[i] = { y: total * RATE_SCALE };
      }
    }
  }
  const peak = (pts: (ChartPoint | null)[]) => Math.max(0, ...pts.map((p) => p?.y ?? 0));
  const ranked = [...groups.entries()].sort(
    (a, b) => peak(b[1].main) - peak(a[1].main) || a[0].localeCompare(b[0]),
  );
  const shown = ranked.slice(0, MAX_GROUPS);
  const series: ChartSeries[] = [];
  for (const [name, g] of shown) {
    const dash = g.bySeason
      ? undefined
      : SEASON_DASHES[Math.min(g.seasonRank, SEASON_DASHES.length - 1)];
    series.push({ name, role: 'main', ...g.style, dash, points: g.main });
    if (kind === 'abundance-anomaly' && g.avg.some((p) => p !== null))
      series.push({
        name: `${name}, five-year average`,
        role: 'average',
        ...g.style,
        dash: AVERAGE_DASH,
        points: g.avg,
      });
  }
  for (const [name, points] of cdc)
    series.push({
      name,
      role: 'cdc',
      ...ALL_SPECIES_STYLE,
      marker: 'square',
      dash: CDC_DASH,
      points,
    });
  return {
    categories: keys.map((k) => categories.get(k) ?? k),
    series,
    hidden: ranked.length - shown.length,
    measure: MEASURES[kind],
    secondAxis: cdc.size > 0 ? { title: 'CDC vector index', per: RATE_SCALE } : null,
  };
}

const INTERVAL_WORDS: Record<Interval, string> = {
  Week: 'week',
  Biweek: 'MMWR weeks',
  Month: 'month',
  CollectionDate: 'collection date',
};

/** The highest point of some lines: its figure, line and category. */
function highest(data: ChartData, lines: ChartSeries[]) {
  let best: { name: string; y: number; x: string } | null = null;
  for (const s of lines)
    s.points.forEach((p, i) => {
      if (p && (!best || p.y > best.y)) best = { name: s.name, y: p.y, x: data.categories[i] };
    });
  return best as { name: string; y: number; x: string } | null;
}

/** A sentence for screen readers: what the chart shows and its highest points. */
export function chartSummary(data: ChartData, interval: Interval): string {
  const word = INTERVAL_WORDS[interval];
  const main = data.series.filter((s) => s.role === 'main');
  const head = `${data.measure} by ${word}, ${main.length} line${main.length === 1 ? '' : 's'}`;
  const peak = highest(data, main);
  let text = peak
    ? `${head}; highest ${formatFigure(peak.y)} (${peak.name}, ${word} ${peak.x})`
    : `${head}; no figures`;
  const cdc = highest(
    data,
    data.series.filter((s) => s.role === 'cdc'),
  );
  if (cdc && data.secondAxis)
    text += `, ${cdc.name}, highest ${formatFigure(cdc.y / data.secondAxis.per)} (${word} ${cdc.x})`;
  return `${text}. The table below lists every figure.`;
}
