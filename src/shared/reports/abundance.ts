import type { ReportCollection } from './report-collection';
import {
  compareGroups,
  entryOf,
  groupKey,
  intervalCache,
  labelledKeys,
  labelColumns,
  toReport,
  type Group,
  type LabelColumn,
} from './report-groups';
import type { AbundanceParams, AbundanceRow, Report } from './report-params';
import { rRound } from './r-round';
import { reportFilters } from './report-filters';
import { checkRowBudget } from './report-row-budget';

export interface AbundanceGroup extends Group {
  count: number;
  trapEvents: number;
  abundance: number;
}

/**
 * Abundance per trap night by group, as vectorsurvR 1.6.3's `getAbundance` (R/getAbundance.R):
 * 1. rows with trap_nights or num_trap 0 or missing, or trap_problem_bit not false, are dropped;
 * 2. Count = Σ num_count over rows matching the agency, species, trap and sex filters and the
 *    trap-night range;
 * 3. TrapEvents = Σ trap_nights × num_trap over distinct collections matching only the agency
 *    and trap filters, grouped without species (vectorsurvR's `tns`);
 * 4. every group with TrapEvents > 0 is a row (Count 0 when nothing matched); separated by
 *    species, each requested species (by default every species left after step 1, a missing
 *    display name included, as R's `unique` keeps NA) gets a row in each group;
 * 5. Abundance = round(Count / TrapEvents, 4) with R's rounding.
 */
export function abundanceGroups(
  collections: readonly ReportCollection[],
  params: AbundanceParams,
): { labels: LabelColumn[]; groups: AbundanceGroup[] } {
  const interval = params.interval ?? 'Week';
  const labels = labelColumns(params.separate_by);
  const filters = reportFilters(params);
  const intervalAt = intervalCache(interval);
  // Step 1 drops whole collections (its conditions are the collection's). `!= 0` in R drops NA
  // too. A kept collection stands for its rows as vectorsurvR's `getArthroCollections`
  // flattens them: one per abundance row, or one with no species, sex or count when it has none
  // (it still counts toward trap events).
  const kept = keptCollections(filters, collections);
  const nightsMin = params.trapnight_min ?? 1;
  const nightsMax = params.trapnight_max ?? Infinity;
  const speciesAt = labels.findIndex((l) => l.by === 'species');
  const speciesList = [...new Set(params.species ?? kept.flatMap(speciesOf))];

  const events = new Map<string, { group: Group; trapEvents: number }>();
  const counts = new Map<string, number>();
  const eventsCounted = new Set<number>();
  const keyWithSpecies = labelledKeys(speciesAt);
  for (const c of kept) {
    const agency = c.agency?.code ?? null;
    const trap = c.trap?.acronym ?? null;
    if (!filters.agencyTrapOk(agency, trap)) continue;
    // The collection's group with no species: its trap events' group, and its rows' groups
    // but for the species.
    const group: Group = {
      year: c.surv_year ?? null,
      interval: intervalAt(c.collection_date ?? null),
      labels: labels.map((l) => (l.by === 'agency' ? agency : l.by === 'trap' ? trap : null)),
    };
    const key = groupKey(group);
    const nights = c.trap_nights as number;
    if (!eventsCounted.has(c.id)) {
      eventsCounted.add(c.id);
      const entry = entryOf(events, key, () => ({ group, trapEvents: 0 }));
      entry.trapEvents += nights * (c.num_trap as number);
    }
    if (nights < nightsMin || nights > nightsMax) continue;
    const arthropods = c.arthropods?.length ? c.arthropods : [NO_ARTHROPODS];
    for (const a of arthropods) {
      const species = a.species?.display_name ?? null;
      if (!filters.speciesSexOk(species, a.sex?.type ?? null)) continue;
      const at = speciesAt < 0 ? key : keyWithSpecies(group, key, species);
      counts.set(at, (counts.get(at) ?? 0) + (a.num_count ?? 0)); // sum(na.rm = TRUE)
    }
  }

  // Separated by species, every group with trap events has a row per listed species: known
  // before any is built.
  let withEvents = 0;
  for (const e of events.values()) if (e.trapEvents > 0) withEvents += 1;
  checkRowBudget(withEvents * (speciesAt < 0 ? 1 : speciesList.length), params.rowBudget);

  const groups: AbundanceGroup[] = [];
  const add = (group: Group, trapEvents: number) => {
    const counted = counts.get(groupKey(group));
    const count = counted ?? 0;
    // R's labels are paste(sort(unique(values))) over the group's rows, "" where the value is
    // missing: Trap from the trap events, Species and Agency from the counted rows (a group
    // nothing was counted in keeps the missing value as NA).
    const labelled = {
      ...group,
      labels: group.labels.map((v, i) =>
        v === null && (labels[i].by === 'trap' || counted !== undefined) ? '' : v,
      ),
    };
    groups.push({ ...labelled, count, trapEvents, abundance: rRound(count / trapEvents, 4) });
  };
  for (const { group, trapEvents } of events.values()) {
    if (!(trapEvents > 0)) continue;
    if (speciesAt < 0) add(group, trapEvents);
    else
      for (const s of speciesList)
        add({ ...group, labels: withSpecies(group.labels, speciesAt, s) }, trapEvents);
  }
  groups.sort(compareGroups);
  return { labels, groups };
}

/** Step 1: the collections in the asked years with trap nights, traps and no trap problem. */
function keptCollections(
  filters: ReturnType<typeof reportFilters>,
  collections: readonly ReportCollection[],
): ReportCollection[] {
  return filters
    .inYears(collections)
    .filter((c) => !!c.trap_nights && !!c.num_trap && c.trap_problem_bit === false);
}

/**
 * The years of `abundanceGroups(collections, { ...params, separate_by: [] })`'s groups (those
 * with TrapEvents > 0), worked out from the trap events alone: nothing is counted.
 */
export function trapEventYears(
  collections: readonly ReportCollection[],
  params: AbundanceParams,
): Set<number | null> {
  const filters = reportFilters(params);
  const intervalAt = intervalCache(params.interval ?? 'Week');
  const events = new Map<string, { year: number | null; trapEvents: number }>();
  const eventsCounted = new Set<number>();
  for (const c of keptCollections(filters, collections)) {
    if (!filters.agencyTrapOk(c.agency?.code ?? null, c.trap?.acronym ?? null)) continue;
    if (eventsCounted.has(c.id)) continue;
    eventsCounted.add(c.id);
    const year = c.surv_year ?? null;
    const key = groupKey({ year, interval: intervalAt(c.collection_date ?? null), labels: [] });
    const entry = entryOf(events, key, () => ({ year, trapEvents: 0 }));
    entry.trapEvents += (c.trap_nights as number) * (c.num_trap as number);
  }
  return new Set([...events.values()].filter((e) => e.trapEvents > 0).map((e) => e.year));
}

/** The one row of a collection with no abundance rows: no species, sex or count. */
const NO_ARTHROPODS: { species?: null; sex?: null; num_count?: null } = {};

/** The species of a collection's flattened rows (null for the one row of an empty collection). */
const speciesOf = (c: ReportCollection): (string | null)[] =>
  c.arthropods?.length ? c.arthropods.map((a) => a.species?.display_name ?? null) : [null];

const withSpecies = (labels: (string | null)[], at: number, species: string | null) =>
  labels.map((l, i) => (i === at ? species : l));

export const ABUNDANCE_FIGURES = ['Count', 'TrapEvents', 'Abundance'] as const;

/** `GET /api/reports/abundance`: Year, interval, labels, Count, TrapEvents, Abundance. */
export function abundanceReport(
  collections: readonly ReportCollection[],
  params: AbundanceParams = {},
): Report<AbundanceRow> {
  const interval = params.interval ?? 'Week';
  const { labels, groups } = abundanceGroups(collections, params);
  return toReport(interval, labels, groups, ABUNDANCE_FIGURES, (g) => ({
    Count: g.count,
    TrapEvents: g.trapEvents,
    Abundance: g.abundance,
  }));
}
