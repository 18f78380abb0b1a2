import type { LookupsDocument } from '#shared';

/**
 * How a technician reads a species and sex in a message or a pool's title ("Cx tarsalis
 * F-Mixed"), from the cached lists; an id missing from them is named as such, never dropped.
 */
export function speciesSexLabeller(
  lookups: Pick<LookupsDocument, 'species' | 'sex'>,
): (species: number, sex: number) => string {
  return (species, sex) => {
    const sp = lookups.species.find((s) => s.id === species);
    const sx = lookups.sex.find((s) => s.id === sex);
    return `${sp ? (sp.display_name ?? sp.full_name) : `species ${species}`} ${sx?.name ?? `sex ${sex}`}`;
  };
}
