import { abundanceGroups, ABUNDANCE_FIGURES } from './abundance';
import { compensatedSum } from './compensated-sum';
import { infectionRateGroups, INFECTION_RATE_FIGURES } from './infection-rate';
import type { ReportCollection } from './report-collection';
import type { ReportPool } from './report-pool';
import { checkRowBudget } from './report-row-budget';
import { compareGroups, entryOf, groupKey, toReport, type Group } from './report-groups';
import type {
  Report,
  VectorIndexFigures,
  VectorIndexParams,
  VectorIndexRow,
} from './report-params';

/**
 * `GET /api/reports/vector-index`, as vectorsurvR 1.6.3's `getVectorIndex`
 * (R/getVectorIndex.R): the abundance and infection-rate rows (both with `sex` defaulting to
 * all sexes) fully outer-joined on Year + interval (+ labels); VectorIndex = Abundance ×
 * InfectionRate, null when either side is missing. Not summed over species, and 1000× the
 * classical index when the rate is per 1000.
 *
 * CDCVectorIndex (Trapline's, only when separating by species) = Σ over the species rows of the
 * same Year + interval (+ trap, agency) of Abundance × InfectionRate / scale, the CDC definition;
 * species with either figure missing add nothing, and it is null when none has both.
 *
 * vectorsurvR refuses (returns a message instead of rows) when the pools' and the collections'
 * years differ; here each side simply contributes the rows it has.
 */
export function vectorIndexReport(
  collections: readonly ReportCollection[],
  pools: readonly ReportPool[],
  params: VectorIndexParams = {},
): Report<VectorIndexRow> {
  const interval = params.interval ?? 'Week';
  const scale = params.scale ?? 1000;
  const both = { ...params, sex: params.sex ?? 'all' };
  const abundance = abundanceGroups(collections, both);
  const infection = infectionRateGroups(pools, both);
  const labels = abundance.labels;
  const speciesAt = labels.findIndex((l) => l.by === 'species');

  const joined = new Map<string, Group & { cells: VectorIndexFigures }>();
  const entry = (g: Group) =>
    entryOf(joined, groupKey(g), () => ({
      year: g.year,
      interval: g.interval,
      labels: g.labels,
      cells: {
        Count: null,
        TrapEvents: null,
        Abundance: null,
        InfectionRate: null,
        LowerCI: null,
        UpperCI: null,
        VectorIndex: null,
      } as VectorIndexFigures,
    })).cells;
  for (const g of abundance.groups) {
    Object.assign(entry(g), { Count: g.count, TrapEvents: g.trapEvents, Abundance: g.abundance });
  }
  for (const g of infection.groups) {
    Object.assign(entry(g), { InfectionRate: g.rate, LowerCI: g.lower, UpperCI: g.upper });
  }
  // Each side kept to the budget, their join too (it has at most both sides' rows).
  checkRowBudget(joined.size, params.rowBudget);
  const ordered = [...joined.values()].sort(compareGroups);
  for (const r of ordered) {
    const { Abundance, InfectionRate } = r.cells;
    r.cells.VectorIndex =
      Abundance !== null && InfectionRate !== null ? Abundance * InfectionRate : null;
  }

  // The CDC sum over species, per Year + interval + the other labels.
  const cdc = new Map<string, number[]>();
  const withoutSpecies = (g: Group) =>
    groupKey({ ...g, labels: g.labels.filter((_, i) => i !== speciesAt) });
  if (speciesAt >= 0) {
    for (const r of ordered) {
      const terms = entryOf(cdc, withoutSpecies(r), () => [] as number[]);
      if (r.cells.VectorIndex !== null) terms.push(r.cells.VectorIndex / scale);
    }
  }

  const sumOverSpecies = (r: Group) => {
    const terms = cdc.get(withoutSpecies(r)) as number[];
    return terms.length === 0 ? null : compensatedSum(terms.length, (i) => terms[i]);
  };
  return toReport(
    interval,
    labels,
    ordered,
    [
      ...ABUNDANCE_FIGURES,
      ...INFECTION_RATE_FIGURES,
      'VectorIndex',
      ...(speciesAt >= 0 ? ['CDCVectorIndex'] : []),
    ],
    (r): VectorIndexFigures =>
      speciesAt >= 0 ? { ...r.cells, CDCVectorIndex: sumOverSpecies(r) } : r.cells,
  );
}
