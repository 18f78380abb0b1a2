import type { TraplineDb } from './database';
import { deleteRecord } from './delete-record';

/** Deletes a collection (refused while unsent pools of an unsent collection hang on it). */
export function deleteCollection(db: TraplineDb, localId: string): Promise<'removed' | 'queued'> {
  return deleteRecord(db, 'collection', localId);
}
