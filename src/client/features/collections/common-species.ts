import type { Species } from '#shared';

const DEFAULT_COMMON = ['Cx tarsalis', 'Cx pipiens', 'Cx quinquefasciatus'];

const nameOf = (s: Species) => s.display_name ?? s.full_name;

/**
 * The species offered as quick-add buttons: the ones most often counted in this tablet's
 * collections, else Cx tarsalis, Cx pipiens and Cx quinquefasciatus (the common Culex of
 * California). Only species present in the lookups are offered.
 */
export function commonSpecies(
  collections: readonly { data: Record<string, unknown> }[],
  species: readonly Species[],
  limit = 3,
): Species[] {
  const byId = new Map(species.map((s) => [s.id, s]));
  const uses = new Map<number, number>();
  for (const c of collections) {
    const rows = (c.data.arthropods as { species: number }[] | undefined) ?? [];
    for (const id of new Set(rows.map((r) => r.species))) uses.set(id, (uses.get(id) ?? 0) + 1);
  }
  const used = [...uses.entries()]
    .filter(([id]) => byId.has(id))
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .map(([id]) => byId.get(id)!);
  if (used.length > 0) return used.slice(0, limit);
  const defaults = DEFAULT_COMMON.map((name) =>
    species.find((s) => nameOf(s) === name || s.full_name === name.replace(/^Cx /, 'Culex ')),
  ).filter((s): s is Species => s !== undefined);
  return defaults.slice(0, limit);
}

/** The plain "female" sex (not a condition such as F-Gravid): the default of a quick-added row. */
export function defaultFemaleSex<T extends { id: number; name: string; type: string }>(
  sexes: readonly T[],
): T | undefined {
  return (
    sexes.find((s) => s.name.toLowerCase() === 'female') ??
    sexes.find((s) => s.type === 'female' && !s.name.startsWith('F-')) ??
    sexes.find((s) => s.type === 'female')
  );
}
