import type { TraplineDb } from './database';
import type { CollectionData } from './create-collection';
import { updateRecord } from './update-record';

/** Saves an edited collection (complete new data) following the outbox rules. */
export function updateCollection(
  db: TraplineDb,
  localId: string,
  data: CollectionData,
  /** The data the form opened with (see updateRecord). */
  opened?: Record<string, unknown>,
  /** The key of the form draft it was typed in, deleted with the edit (see updateRecord). */
  draftKey?: string,
): Promise<boolean> {
  return updateRecord(db, 'collection', localId, data, opened, draftKey);
}
