import { pooledEstimate } from './pooled-estimate';
import type { ReportPool } from './report-pool';
import {
  compareGroups,
  entryOf,
  groupKey,
  intervalCache,
  labelValues,
  labelColumns,
  toReport,
  type Group,
  type LabelColumn,
} from './report-groups';
import type { InfectionRateParams, InfectionRateRow, Report } from './report-params';
import { reportFilters } from './report-filters';
import { checkRowBudget } from './report-row-budget';

export interface InfectionRateGroup extends Group {
  /** Per `scale` (default 1000); null where the estimator has none (every pool positive). */
  rate: number | null;
  lower: number | null;
  upper: number | null;
}

/**
 * Infection rate by group, as vectorsurvR 1.6.3's `getInfectionRate` (R/getInfectionRate.R):
 * one row per (pool, test) whose target is `target_disease`, x = 1 when the test's status is
 * exactly `Confirmed` (Pending counts as negative), m = the pool's num_count; pools matching the
 * agency, species, trap and sex filters, grouped by Year + interval (+ labels); only groups that
 * have such rows are returned. The estimate and its interval are multiplied by `scale`.
 */
export function infectionRateGroups(
  pools: readonly ReportPool[],
  params: InfectionRateParams,
): { labels: LabelColumn[]; groups: InfectionRateGroup[] } {
  const interval = params.interval ?? 'Week';
  const labels = labelColumns(params.separate_by);
  const target = params.target_disease ?? 'WNV';
  const estimator = params.pt_estimate ?? 'bc-mle';
  const scale = params.scale ?? 1000;
  const filters = reportFilters(params);
  const intervalAt = intervalCache(interval);

  // One row per (pool, test), as vectorsurvR's `getPools` flattens the list: a pool tested
  // twice for the target counts twice; a pool with no test has no target and never matches.
  // Every filter but the target is the pool's, so a pool is placed in its group once.
  const byGroup = new Map<string, { group: Group; x: number[]; m: number[] }>();
  for (const p of filters.inYears(pools)) {
    const tests = p.test ?? [];
    if (!tests.some((t) => (t.target?.acronym ?? null) === target)) continue;
    const agency = p.agency?.code ?? null;
    const trap = p.trap?.acronym ?? null;
    const species = p.species?.display_name ?? null;
    if (!filters.agencyTrapOk(agency, trap)) continue;
    if (!filters.speciesSexOk(species, p.sex?.type ?? null)) continue;
    const group: Group = {
      year: p.surv_year ?? null,
      interval: intervalAt(p.collection_date ?? null),
      labels: labelValues(labels, { species, trap, agency }),
    };
    const entry = entryOf(byGroup, groupKey(group), () => ({
      group,
      x: [] as number[],
      m: [] as number[],
    }));
    for (const t of tests) {
      if ((t.target?.acronym ?? null) !== target) continue;
      entry.x.push((t.status?.name ?? null) === 'Confirmed' ? 1 : 0);
      entry.m.push(p.num_count);
    }
  }

  // Before the estimates, the costly part (bc-mle iterates per group).
  checkRowBudget(byGroup.size, params.rowBudget);
  const groups: InfectionRateGroup[] = [];
  for (const { group, x, m } of byGroup.values()) {
    const e = pooledEstimate(estimator, x, m);
    const scaled = (v: number | undefined) =>
      v === undefined || !Number.isFinite(v) ? null : v * scale;
    // R labels a group paste(sort(unique(values))): "" for a missing species, trap or agency.
    const labelled = { ...group, labels: group.labels.map((v) => v ?? '') };
    groups.push({
      ...labelled,
      rate: scaled(e?.p),
      lower: scaled(e?.lower),
      upper: scaled(e?.upper),
    });
  }
  groups.sort(compareGroups);
  return { labels, groups };
}

export const INFECTION_RATE_FIGURES = ['InfectionRate', 'LowerCI', 'UpperCI'] as const;

/** `GET /api/reports/infection-rate`: Year, interval, labels, InfectionRate, LowerCI, UpperCI. */
export function infectionRateReport(
  pools: readonly ReportPool[],
  params: InfectionRateParams = {},
): Report<InfectionRateRow> {
  const interval = params.interval ?? 'Week';
  const { labels, groups } = infectionRateGroups(pools, params);
  return toReport(interval, labels, groups, INFECTION_RATE_FIGURES, (g) => ({
    InfectionRate: g.rate,
    LowerCI: g.lower,
    UpperCI: g.upper,
  }));
}
