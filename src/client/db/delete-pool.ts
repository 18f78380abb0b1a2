import type { TraplineDb } from './database';
import { deleteRecord } from './delete-record';

/** Deletes a pool (an unsent one is removed with its entry; a synced one gets a delete entry). */
export function deletePool(db: TraplineDb, localId: string): Promise<'removed' | 'queued'> {
  return deleteRecord(db, 'pool', localId);
}
