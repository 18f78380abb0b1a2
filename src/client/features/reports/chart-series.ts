import type { IntlShape } from 'react-intl';
import { englishIntl } from '../../lib/i18n';
import type { Cell, Interval } from '#shared/reports';
import type { ReportRow } from './fetch-report';
import { formatFigure } from './format-figure';
import { dayOfYear, periodLabel } from './period-label';
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

function measureOf(intl: IntlShape, kind: ReportKind): string {
  const t = intl.formatMessage;
  switch (kind) {
    case 'abundance-anomaly':
    case 'abundance':
      return t({ id: 'reports.measure.abundance', defaultMessage: 'Mosquitoes per trap night' });
    case 'infection-rate':
      return t({ id: 'reports.column.infectionRate', defaultMessage: 'Infection rate per 1,000' });
    case 'vector-index':
      return t({ id: 'reports.column.vectorIndex', defaultMessage: 'Vector index per 1,000' });
  }
}
const cdcLine = (intl: IntlShape) =>
  intl.formatMessage({ id: 'reports.column.cdc', defaultMessage: 'CDC vector index, all species' });
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
function categoryOf(
  row: ReportRow,
  interval: Interval,
  intl: IntlShape,
): { key: string; label: string } {
  const v = row[interval];
  if (interval === 'CollectionDate') {
    const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(String(v ?? ''));
    if (!m) return { key: String(v), label: String(v) };
    const season = typeof row.Year === 'number' ? row.Year : Number(m[1]);
    const years = Math.max(-1, Math.min(1, Number(m[1]) - season)); // -1, 0 or +1: key order
    const day = dayOfYear(intl, Number(m[2]), Number(m[3]));
    const label =
      years === 0
        ? day
        : intl.formatMessage(
            {
              id: 'reports.chart.otherYear',
              defaultMessage: '{day}, {which, select, next {next year} other {previous year}}',
            },
            { day, which: years > 0 ? 'next' : 'previous' },
          );
    return { key: `${years + 1}-${m[2]}-${m[3]}`, label };
  }
  const key = String(Number(v)).padStart(3, '0');
  return { key, label: periodLabel(interval, v, intl) };
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

function groupName(row: ReportRow, manyYears: boolean, intl: IntlShape): string {
  const t = intl.formatMessage;
  const labels = (['Species', 'Trap', 'Agency'] as const)
    .filter((k) => k in row)
    .map((k) =>
      row[k] === null || row[k] === ''
        ? t({ id: 'reports.none', defaultMessage: '(none)' })
        : String(row[k]),
    );
  if (manyYears) labels.push(String(row.Year));
  return (
    labels.join(' · ') || t({ id: 'reports.picker.allSpecies', defaultMessage: 'All species' })
  );
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
  intl: IntlShape = englishIntl(),
): ChartData {
  const years = [...new Set(rows.map((r) => r.Year))].sort().reverse();
  const manyYears = years.length > 1;
  const categories = new Map<string, string>();
  for (const r of rows) {
    const c = categoryOf(r, interval, intl);
    categories.set(c.key, c.label);
  }
  const keys = [...categories.keys()].sort();
  const at = new Map(keys.map((k, i) => [k, i]));
  const empty = () => keys.map((): ChartPoint | null => null);

  const groups = new Map<string, Group>();
  const cdc = new Map<string, (ChartPoint | null)[]>();
  for (const r of rows) {
    const name = groupName(r, manyYears, intl);
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
    const i = at.get(categoryOf(r, interval, intl).key) ?? 0;
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
        const line = manyYears ? `${cdcLine(intl)} · ${String(r.Year)}` : cdcLine(intl);
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
        name: intl.formatMessage(
          { id: 'reports.chart.average', defaultMessage: '{name}, five-year average' },
          { name },
        ),
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
    measure: measureOf(intl, kind),
    secondAxis:
      cdc.size > 0
        ? {
            title: intl.formatMessage({
              id: 'reports.chart.cdcAxis',
              defaultMessage: 'CDC vector index',
            }),
            per: RATE_SCALE,
          }
        : null,
  };
}

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
export function chartSummary(
  data: ChartData,
  interval: Interval,
  intl: IntlShape = englishIntl(),
): string {
  const t = intl.formatMessage;
  const main = data.series.filter((s) => s.role === 'main');
  const head = t(
    {
      id: 'reports.chart.summaryHead',
      defaultMessage:
        '{measure} by {interval, select, Week {week} Biweek {MMWR weeks} Month {month} other {collection date}}, {lines, plural, one {# line} other {# lines}}',
    },
    { measure: data.measure, interval, lines: main.length },
  );
  const peak = highest(data, main);
  let text = peak
    ? t(
        {
          id: 'reports.chart.summaryPeak',
          defaultMessage:
            '{head}; highest {figure} ({name}, {interval, select, Week {week} Biweek {MMWR weeks} Month {month} other {collection date}} {at})',
        },
        { head, figure: formatFigure(peak.y, intl), name: peak.name, interval, at: peak.x },
      )
    : t({ id: 'reports.chart.summaryEmpty', defaultMessage: '{head}; no figures' }, { head });
  const cdc = highest(
    data,
    data.series.filter((s) => s.role === 'cdc'),
  );
  if (cdc && data.secondAxis)
    text = t(
      {
        id: 'reports.chart.summaryCdc',
        defaultMessage:
          '{text}, {name}, highest {figure} ({interval, select, Week {week} Biweek {MMWR weeks} Month {month} other {collection date}} {at})',
      },
      {
        text,
        name: cdc.name,
        figure: formatFigure(cdc.y / data.secondAxis.per, intl),
        interval,
        at: cdc.x,
      },
    );
  return t(
    {
      id: 'reports.chart.summaryEnd',
      defaultMessage: '{text}. The table below lists every figure.',
    },
    { text },
  );
}
