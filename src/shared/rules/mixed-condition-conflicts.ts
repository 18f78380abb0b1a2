import { MIXED_FEMALE_CONDITION, SPECIFIC_FEMALE_CONDITIONS } from '../schemas/lookups';
import type { FieldError } from '../schemas/error';

type Row = { species: number; sex: number };
type SexLookup = { id: number; name: string };

/**
 * Contract §6: F-Mixed may not be combined with F-Unfed / F-Bloodfed / F-Gravid for the same
 * species. Returns one field error per offending row (empty when the rows are fine); the
 * records service answers them with 422 `mixed_condition_conflict`, the collection form shows
 * them under the rows' sex.
 */
export function mixedConditionConflicts(
  rows: readonly Row[],
  sexes: readonly SexLookup[],
): FieldError[] {
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
