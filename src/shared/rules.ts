import { MIXED_FEMALE_CONDITION, SPECIFIC_FEMALE_CONDITIONS } from './schemas/lookups';
import type { FieldError } from './schemas/error';

type Row = { species: number; sex: number };
type SexLookup = { id: number; name: string };

/**
 * Contract §6: F-Mixed may not be combined with F-Unfed / F-Bloodfed / F-Gravid for the same
 * species. Returns one field error per offending row (empty when the rows are fine).
 */
export function mixedConditionConflicts(rows: Row[], sexes: SexLookup[]): FieldError[] {
  const nameOf = new Map(sexes.map((s) => [s.id, s.name]));
  const mixedSpecies = new Set(
    rows.filter((r) => nameOf.get(r.sex) === MIXED_FEMALE_CONDITION).map((r) => r.species),
  );
  const errors: FieldError[] = [];
  rows.forEach((r, i) => {
    const name = nameOf.get(r.sex) ?? '';
    if (
      mixedSpecies.has(r.species) &&
      (SPECIFIC_FEMALE_CONDITIONS as readonly string[]).includes(name)
    ) {
      errors.push({
        path: `arthropods.${i}.sex`,
        message: `${name} cannot be combined with ${MIXED_FEMALE_CONDITION} for the same species; count them all as ${MIXED_FEMALE_CONDITION} or split every female by condition`,
      });
    }
  });
  return errors;
}

/** Year of an ISO date input as written (the local date of a date-time with offset): the default `surv_year`. */
export function survYearOf(date: string): number {
  return Number(date.slice(0, 4));
}
