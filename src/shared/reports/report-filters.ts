import type { FilterParams } from './report-params';

type Labelled = { species: string | null; trap: string | null; agency: string | null };

/**
 * vectorsurvR's `x %in% list` filter with its NULL default: no list keeps every row (a missing
 * value too, as `unique(column)` then holds NA); a list keeps only the values it names.
 */
function valueFilter(list: readonly string[] | undefined): (v: string | null) => boolean {
  if (list === undefined) return () => true;
  const names = new Set(list);
  return (v) => v !== null && names.has(v);
}

/**
 * The filters every report applies, built once: `inYears` (the `year` list, applied first as
 * fetching `surv_year $between` does for vectorsurvR), `agencyTrap` (what trap events see),
 * `speciesSex` (what counts and pools see besides). `sex` defaults to female; `all` keeps
 * every row, a missing sex too (vectorsurvR's `unique(sex_type)`).
 */
export function reportFilters(params: FilterParams) {
  const years = params.year === undefined ? null : new Set<number | null>(params.year);
  const agencyOk = valueFilter(params.agency);
  const trapOk = valueFilter(params.trap);
  const speciesOk = valueFilter(params.species);
  const sex = params.sex ?? 'female';
  const agencyTrapOk = (agency: string | null, trap: string | null) =>
    agencyOk(agency) && trapOk(trap);
  const speciesSexOk = (species: string | null, sexType: string | null) =>
    speciesOk(species) && (sex === 'all' || sexType === sex);
  return {
    inYears: <R extends { surv_year?: number | null }>(records: readonly R[]): readonly R[] =>
      years ? records.filter((r) => years.has(r.surv_year ?? null)) : records,
    agencyTrap: (r: Labelled) => agencyTrapOk(r.agency, r.trap),
    speciesSex: (r: Labelled & { sex: string | null }) => speciesSexOk(r.species, r.sex),
    /** The same tests on bare values: a report's inner loop allocates no row to ask them. */
    agencyTrapOk,
    speciesSexOk,
  };
}
