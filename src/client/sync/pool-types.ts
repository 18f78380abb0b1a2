import type { SyncContext } from './sync-context';

/** Species types whose pools the server lists apart (`type`, contract §4); mosquito by default. */
export const POOL_TYPES = ['mosquito', 'tick', 'nontick'] as const;

/**
 * The species type of a pool's species id, from the stored lookups; with none stored, mosquito
 * (the pools the pull lists: a tablet without lookups has made none of its own).
 */
export async function speciesTypes(
  ctx: SyncContext,
): Promise<(species: number) => string | undefined> {
  const row = await ctx.db.lookups.get('lookups');
  if (!row) return () => 'mosquito';
  const types = new Map(row.document.species.map((s) => [s.id, s.type]));
  return (species) => types.get(species);
}
