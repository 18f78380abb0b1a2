import { collectionRows } from './collection-rows';
import type { ReportCollection } from './report-collection';
import {
  compareGroups,
  entryOf,
  groupKey,
  grouper,
  labelColumns,
  toReport,
  type Group,
  type LabelColumn,
} from './report-groups';
import type { AbundanceParams, AbundanceRow, Report } from './report-params';
import { rRound } from './r-round';
import { reportFilters } from './report-filters';

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
  const groupOf = grouper(interval, labels);
  // Step 1. `!= 0` in R drops NA too.
  const rows = collectionRows(filters.inYears(collections)).filter(
    (r) => !!r.trapNights && !!r.numTrap && r.trapProblem === false,
  );
  const nightsMin = params.trapnight_min ?? 1;
  const nightsMax = params.trapnight_max ?? Infinity;
  const speciesAt = labels.findIndex((l) => l.by === 'species');
  const speciesList = [...new Set(params.species ?? rows.map((r) => r.species))];

  const events = new Map<string, { group: Group; trapEvents: number }>();
  const counts = new Map<string, number>();
  const eventsCounted = new Set<number>();
  for (const r of rows) {
    if (!filters.agencyTrap(r)) continue;
    const group = groupOf(r);
    if (!eventsCounted.has(r.collection)) {
      eventsCounted.add(r.collection);
      const eventGroup =
        speciesAt < 0 ? group : { ...group, labels: withSpecies(group.labels, speciesAt, null) };
      const key = groupKey(eventGroup);
      const entry = entryOf(events, key, () => ({ group: eventGroup, trapEvents: 0 }));
      entry.trapEvents += (r.trapNights as number) * (r.numTrap as number);
    }
    const nights = r.trapNights as number;
    if (!filters.speciesSex(r) || nights < nightsMin || nights > nightsMax) continue;
    const key = groupKey(group);
    counts.set(key, (counts.get(key) ?? 0) + (r.count ?? 0)); // sum(na.rm = TRUE)
  }

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
