import {
  INTERVALS,
  PT_ESTIMATES,
  TARGET_DISEASES,
  type Interval,
  type PtEstimate,
  type TargetDisease,
} from '#shared/reports';
import type { IntlShape } from 'react-intl';
import { englishIntl } from '../../lib/i18n';

/** The four BFF reports, in the order the screen offers them. */
export const REPORT_KINDS = [
  'abundance-anomaly',
  'abundance',
  'infection-rate',
  'vector-index',
] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

/** Short names for the report buttons (the heading gives the full title). */
export function reportShort(intl: IntlShape, kind: ReportKind): string {
  const t = intl.formatMessage;
  switch (kind) {
    case 'abundance-anomaly':
      return t({ id: 'reports.short.anomaly', defaultMessage: 'Abundance vs 5-year average' });
    case 'abundance':
      return t({ id: 'reports.title.abundance', defaultMessage: 'Abundance' });
    case 'infection-rate':
      return t({ id: 'reports.title.infectionRate', defaultMessage: 'Infection rate' });
    case 'vector-index':
      return t({ id: 'reports.title.vectorIndex', defaultMessage: 'Vector index' });
  }
}

export function reportTitle(intl: IntlShape, kind: ReportKind): string {
  return kind === 'abundance-anomaly'
    ? intl.formatMessage({
        id: 'reports.title.anomaly',
        defaultMessage: 'Abundance against the five-year average',
      })
    : reportShort(intl, kind);
}

export function intervalLabel(intl: IntlShape, interval: Interval): string {
  const t = intl.formatMessage;
  switch (interval) {
    case 'Week':
      return t({ id: 'reports.interval.week', defaultMessage: 'Week (MMWR)' });
    case 'Biweek':
      return t({ id: 'reports.interval.biweek', defaultMessage: 'Two weeks' });
    case 'Month':
      return t({ id: 'reports.interval.month', defaultMessage: 'Month' });
    case 'CollectionDate':
      return t({ id: 'reports.interval.collectionDate', defaultMessage: 'Collection date' });
  }
}

function intervalWords(intl: IntlShape, interval: Interval): string {
  const t = intl.formatMessage;
  switch (interval) {
    case 'Week':
      return t({ id: 'reports.by.week', defaultMessage: 'by MMWR week' });
    case 'Biweek':
      return t({ id: 'reports.by.biweek', defaultMessage: 'by two-week period' });
    case 'Month':
      return t({ id: 'reports.by.month', defaultMessage: 'by month' });
    case 'CollectionDate':
      return t({ id: 'reports.by.collectionDate', defaultMessage: 'by collection date' });
  }
}

/** The estimators' names: statistical terms, the same in every language but their spelling out. */
export function estimatorLabel(intl: IntlShape, estimate: PtEstimate): string {
  switch (estimate) {
    case 'bc-mle':
      return intl.formatMessage({
        id: 'reports.estimator.bcMle',
        defaultMessage: 'Bias-corrected MLE',
      });
    case 'mle':
      return 'MLE';
    case 'mir':
      return 'MIR';
  }
}

/** What the user picked. Empty lists mean "all" (the BFF's default: no filter). */
export type ReportChoice = {
  report: ReportKind;
  /** Seasons (surv_year); the anomaly report uses the first as its target season. */
  years: number[];
  interval: Interval;
  species: string[];
  traps: string[];
  /** One row per species (separate_by=species) instead of all species together. */
  bySpecies: boolean;
  target: TargetDisease;
  estimator: PtEstimate;
};

/** The pickers each report takes (only these are shown and sent). */
export const APPLIES: Record<ReportKind, { manyYears: boolean; infection: boolean }> = {
  'abundance-anomaly': { manyYears: false, infection: false },
  abundance: { manyYears: true, infection: false },
  'infection-rate': { manyYears: true, infection: true },
  'vector-index': { manyYears: true, infection: true },
};

export function defaultChoice(season: number): ReportChoice {
  return {
    report: 'abundance-anomaly',
    years: [season],
    interval: 'Week',
    species: [],
    traps: [],
    bySpecies: true,
    target: 'WNV',
    estimator: 'bc-mle',
  };
}

const oneOf = <T extends string>(list: readonly T[], value: string | null, fallback: T): T =>
  list.includes(value as T) ? (value as T) : fallback;

/** The screen's URL search → a choice (anything unknown falls back to the default). */
export function choiceFromSearch(search: URLSearchParams, season: number): ReportChoice {
  const base = defaultChoice(season);
  // Any four-digit year: the BFF judges the range, and its 422 shows next to "Seasons".
  const years = search
    .getAll('year')
    .filter((y) => /^\d{4}$/.test(y))
    .map(Number);
  return {
    report: oneOf(REPORT_KINDS, search.get('report'), base.report),
    years: years.length ? [...new Set(years)].sort((a, b) => b - a) : base.years,
    interval: oneOf(INTERVALS, search.get('interval'), base.interval),
    species: search.getAll('species'),
    traps: search.getAll('trap'),
    bySpecies: search.get('by') !== 'all',
    target: oneOf(TARGET_DISEASES, search.get('target_disease'), base.target),
    estimator: oneOf(PT_ESTIMATES, search.get('pt_estimate'), base.estimator),
  };
}

/** A choice → the screen's URL search (reloading the page shows the same report). */
export function choiceToSearch(c: ReportChoice): URLSearchParams {
  const s = new URLSearchParams({ report: c.report });
  for (const y of c.years) s.append('year', String(y));
  s.set('interval', c.interval);
  for (const v of c.species) s.append('species', v);
  for (const v of c.traps) s.append('trap', v);
  if (!c.bySpecies) s.set('by', 'all');
  if (APPLIES[c.report].infection) {
    s.set('target_disease', c.target);
    s.set('pt_estimate', c.estimator);
  }
  return s;
}

/**
 * A choice → the BFF query string of its report, with only the parameters that report takes
 * (the BFF answers 422 for any other), in a fixed order: equal choices give equal strings, the
 * key of the cached result.
 */
export function reportQuery(c: ReportChoice): string {
  const s = new URLSearchParams();
  const years = [...new Set(c.years)].sort((a, b) => a - b);
  if (APPLIES[c.report].manyYears) for (const y of years) s.append('year', String(y));
  else s.set('target_year', String(Math.max(...years)));
  s.set('interval', c.interval);
  for (const v of [...c.species].sort()) s.append('species', v);
  for (const v of [...c.traps].sort()) s.append('trap', v);
  if (c.bySpecies) s.append('separate_by', 'species');
  if (APPLIES[c.report].infection) {
    s.set('target_disease', c.target);
    s.set('pt_estimate', c.estimator);
  }
  return s.toString();
}

/** A cached report's BFF query → the screen's URL search that shows it again. */
export function searchOfQuery(kind: ReportKind, query: string): URLSearchParams {
  const q = new URLSearchParams(query);
  const s = new URLSearchParams({ report: kind });
  for (const y of [...q.getAll('year'), ...q.getAll('target_year')]) s.append('year', y);
  for (const key of ['interval', 'species', 'trap', 'target_disease', 'pt_estimate'])
    for (const v of q.getAll(key)) s.append(key, v);
  if (!q.getAll('separate_by').includes('species')) s.set('by', 'all');
  return s;
}

/** A one-line description of a choice: seasons, interval and filters, in the person's language. */
export function describeChoice(c: ReportChoice, intl: IntlShape = englishIntl()): string {
  const t = intl.formatMessage;
  const years = APPLIES[c.report].manyYears
    ? [...c.years].sort((a, b) => a - b).join(', ')
    : String(Math.max(...c.years));
  const parts = [years, intervalWords(intl, c.interval)];
  parts.push(
    c.species.length
      ? c.species.join(', ')
      : t({ id: 'reports.describe.allSpecies', defaultMessage: 'all species' }),
  );
  if (c.traps.length)
    parts.push(
      t(
        { id: 'reports.describe.traps', defaultMessage: 'traps {traps}' },
        { traps: c.traps.join(', ') },
      ),
    );
  // The BFF's sex defaults (spec): females, except the vector index, which counts all sexes.
  parts.push(
    c.report === 'vector-index'
      ? t({ id: 'reports.describe.allSexes', defaultMessage: 'all sexes' })
      : t({ id: 'reports.describe.females', defaultMessage: 'females' }),
  );
  if (APPLIES[c.report].infection) parts.push(`${c.target}, ${estimatorLabel(intl, c.estimator)}`);
  return parts.join(' · ');
}
