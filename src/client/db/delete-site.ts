import type { TraplineDb } from './database';
import { deleteRecord } from './delete-record';

/** Deletes a site (an unsent one is removed; a synced one gets a delete entry: managers only). */
export function deleteSite(db: TraplineDb, localId: string): Promise<'removed' | 'queued'> {
  return deleteRecord(db, 'site', localId);
}
