import { z } from 'zod';
import { id, idOrRecord, isoDateOutput } from './common';
import { lure, type Lure } from './lookups';

/** A lure used with a collection's trap, as the create response lists it (contract §6). */
export const lureRecord = z
  .object({
    id,
    add_date: isoDateOutput.optional(),
    table_name: z.string().optional(),
    record_id: id.nullable().optional(),
    agency: id.nullable().optional(),
    lure: idOrRecord,
    deactive_date: isoDateOutput.nullable().optional(),
  })
  .loose();
export type LureRecord = z.infer<typeof lureRecord>;

/**
 * One of a collection's (or pool's) `lures` in any shape a service sends (contract §4, §6,
 * tolerate): a lure type id, a lure link record `{id, …, lure}` (the lure type under `lure`, an
 * id or populated), or with `populate[]=lures` the lure type itself `{id, code, description,
 * weight}`. A link record is told from a lure type by its `lure` field: its own `id` is the
 * link's, never the lure type's.
 */
export const collectionLure = z.union([id, lureRecord, lure]);
export type CollectionLure = number | LureRecord | Lure;

/** Lure type IDs of a collection, whichever of the tolerated shapes the service sent. */
export function lureTypeIds(lures: ReadonlyArray<CollectionLure> | null | undefined): number[] {
  return (lures ?? []).map((l) => {
    if (typeof l === 'number') return l;
    const linked: unknown = l.lure;
    if (typeof linked === 'number') return linked;
    if (linked && typeof linked === 'object') return (linked as { id: number }).id;
    return l.id;
  });
}
