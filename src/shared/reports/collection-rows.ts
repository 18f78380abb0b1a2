import type { ReportCollection } from './report-collection';

/**
 * A collection flattened as vectorsurvR's `getArthroCollections` flattens the list: one row per
 * abundance row, and one row with no species, sex or count for a collection with none (it still
 * counts toward trap events).
 */
export interface CollectionRow {
  collection: number;
  date: string | null;
  year: number | null;
  agency: string | null;
  trap: string | null;
  trapNights: number | null;
  numTrap: number | null;
  trapProblem: boolean | null;
  species: string | null;
  sex: string | null;
  count: number | null;
}

export function collectionRows(collections: readonly ReportCollection[]): CollectionRow[] {
  const rows: CollectionRow[] = [];
  const row = (
    c: ReportCollection,
    species: string | null,
    sex: string | null,
    count: number | null,
  ) => ({
    collection: c.id,
    date: c.collection_date ?? null,
    year: c.surv_year ?? null,
    agency: c.agency?.code ?? null,
    trap: c.trap?.acronym ?? null,
    trapNights: c.trap_nights ?? null,
    numTrap: c.num_trap ?? null,
    trapProblem: c.trap_problem_bit ?? null,
    species,
    sex,
    count,
  });
  for (const c of collections) {
    const arthropods = c.arthropods ?? [];
    if (arthropods.length === 0) rows.push(row(c, null, null, null));
    for (const a of arthropods) {
      rows.push(row(c, a.species?.display_name ?? null, a.sex?.type ?? null, a.num_count ?? null));
    }
  }
  return rows;
}
