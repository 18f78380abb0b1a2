import { z } from 'zod';
import { id, idOrRecord, isoDateOutput } from './common';

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

/** Lure type IDs of a collection, whichever of the two tolerated shapes the service sent. */
export function lureTypeIds(
  lures: ReadonlyArray<number | LureRecord> | null | undefined,
): number[] {
  return (lures ?? []).map((l) =>
    typeof l === 'number' ? l : typeof l.lure === 'number' ? l.lure : l.lure.id,
  );
}
