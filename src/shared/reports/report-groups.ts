import { intervalOf } from './interval-of';
import type { Cell, GroupCells, Interval, Report, SeparateBy } from './report-params';

/** The separated labels in the spec's column order, whatever order `separate_by` names them. */
const LABELS = [
  { by: 'species', column: 'Species' },
  { by: 'trap', column: 'Trap' },
  { by: 'agency', column: 'Agency' },
] as const;
export type LabelColumn = (typeof LABELS)[number];

export function labelColumns(separateBy: readonly SeparateBy[] | undefined): LabelColumn[] {
  return LABELS.filter((l) => separateBy?.includes(l.by));
}

/** A row's values for the separated labels, in labelColumns' order. */
export function labelValues(
  labels: readonly LabelColumn[],
  row: { species: string | null; trap: string | null; agency: string | null },
): (string | null)[] {
  return labels.map((l) => row[l.by]);
}

/** One group of a report: Year + interval + the separated labels (aligned with labelColumns). */
export interface Group {
  year: number | null;
  interval: number | string | null;
  labels: (string | null)[];
}

/**
 * `intervalOf` for one interval, worked out once per distinct date (a season has a few hundred
 * dates and many thousand rows).
 */
export function intervalCache(interval: Interval): (date: string | null) => number | string | null {
  const intervals = new Map<string | null, number | string | null>();
  return (date) => {
    let at = intervals.get(date);
    if (at === undefined) intervals.set(date, (at = intervalOf(date, interval)));
    return at;
  };
}

/**
 * `groupKey` of a group that differs from `base` only in the label at `at`, remembered per
 * (base key, label): a report's rows fall in a few thousand groups, and building the key is
 * the costly part of putting a row in its group.
 */
export function labelledKeys(at: number) {
  const byBase = new Map<string, Map<string | null, string>>();
  return (base: Group, baseKey: string, label: string | null): string => {
    let keys = byBase.get(baseKey);
    if (keys === undefined) byBase.set(baseKey, (keys = new Map()));
    let key = keys.get(label);
    if (key === undefined) {
      const labels = base.labels.map((l, i) => (i === at ? label : l));
      keys.set(label, (key = groupKey({ ...base, labels })));
    }
    return key;
  };
}

/** The entry under `key`, created by `make` the first time. */
export function entryOf<V>(map: Map<string, V>, key: string, make: () => V): V {
  let entry = map.get(key);
  if (entry === undefined) map.set(key, (entry = make()));
  return entry;
}

export function groupKey(g: Group): string {
  return JSON.stringify([g.year, g.interval, ...g.labels]);
}

/** The group's leading cells: `Year`, the interval's column, then the labels. */
function groupCells(g: Group, interval: Interval, labels: readonly LabelColumn[]): GroupCells {
  const cells: Record<string, Cell> = { Year: g.year, [interval]: g.interval };
  labels.forEach((l, i) => (cells[l.column] = g.labels[i]));
  return cells as GroupCells;
}

/** A report from groups: the group's cells, then `figures(group)` under `figureColumns`. */
export function toReport<G extends Group, F extends Record<string, Cell>>(
  interval: Interval,
  labels: readonly LabelColumn[],
  groups: readonly G[],
  figureColumns: readonly string[],
  figures: (g: G) => F,
): Report<GroupCells & F> {
  return {
    columns: ['Year', interval, ...labels.map((l) => l.column), ...figureColumns],
    rows: groups.map((g) => ({ ...groupCells(g, interval, labels), ...figures(g) })),
  };
}

/**
 * Missing values sort last (as R's `arrange` and `merge` put NA last); numbers by value, text
 * by code unit, so the BFF and the browser give the same order whatever their locale.
 */
function compareCells(a: Cell, b: Cell): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a) < String(b) ? -1 : 1;
}

/** Rows sorted by Year, interval, then labels (spec). */
export function compareGroups(a: Group, b: Group): number {
  const byYear = compareCells(a.year, b.year);
  if (byYear !== 0) return byYear;
  const byInterval = compareCells(a.interval, b.interval);
  if (byInterval !== 0) return byInterval;
  for (let i = 0; i < a.labels.length; i++) {
    const byLabel = compareCells(a.labels[i], b.labels[i]);
    if (byLabel !== 0) return byLabel;
  }
  return 0;
}
