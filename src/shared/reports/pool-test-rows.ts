import type { ReportPool } from './report-pool';

/**
 * Pools flattened as vectorsurvR's `getPools` flattens the list: one row per (pool, test), so a
 * pool tested twice for the same target counts twice. A pool with no test gives no row here:
 * its target is missing and so it never matches a target disease.
 */
export interface PoolTestRow {
  pool: number;
  date: string | null;
  year: number | null;
  agency: string | null;
  trap: string | null;
  species: string | null;
  sex: string | null;
  count: number;
  target: string | null;
  status: string | null;
}

export function poolTestRows(pools: readonly ReportPool[]): PoolTestRow[] {
  const rows: PoolTestRow[] = [];
  for (const p of pools) {
    for (const t of p.test ?? []) {
      rows.push({
        pool: p.id,
        date: p.collection_date ?? null,
        year: p.surv_year ?? null,
        agency: p.agency?.code ?? null,
        trap: p.trap?.acronym ?? null,
        species: p.species?.display_name ?? null,
        sex: p.sex?.type ?? null,
        count: p.num_count,
        target: t.target?.acronym ?? null,
        status: t.status?.name ?? null,
      });
    }
  }
  return rows;
}
