import type { TraplineDb } from './database';
import type { CollectionData } from './create-collection';
import { moveCollectionToSite } from './move-collection';
import { updateRecord } from './update-record';

/**
 * Saves an edited collection (complete new data) following the outbox rules, and moves it to
 * `siteLocalId` when that is another site: both in ONE transaction, so an edit is never saved
 * without its move, or the other way round.
 */
export function updateCollection(
  db: TraplineDb,
  localId: string,
  data: CollectionData,
  /** The data the form opened with (see updateRecord). */
  opened?: Record<string, unknown>,
  /** The key of the form draft it was typed in, deleted with the edit (see updateRecord). */
  draftKey?: string,
  /** The site it belongs at now (its localId); absent: where it is. */
  siteLocalId?: string,
): Promise<boolean> {
  return db.transaction('rw', [db.collections, db.sites, db.outbox, db.meta], async () => {
    const edited = await updateRecord(db, 'collection', localId, data, opened, draftKey);
    const moved = siteLocalId ? await moveCollectionToSite(db, localId, siteLocalId) : false;
    return edited || moved;
  });
}
