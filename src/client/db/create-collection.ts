import type { CollectionCreate } from '#shared';
import type { TraplineDb } from './database';
import { createRecords } from './create-records';

/** The collection payload as the tablet keeps it: the site is named by its localId instead. */
export type CollectionData = Omit<CollectionCreate, 'site'>;

/** Saves a new collection at a site (by localId) with its create entry; returns its localId. */
export async function createCollection(
  db: TraplineDb,
  siteLocalId: string,
  data: CollectionData,
  /** The key of the form draft it was typed in, deleted with it (see createRecords). */
  draftKey?: string,
): Promise<string> {
  const [localId] = await createRecords(
    db,
    'collection',
    [{ data, parentLocalId: siteLocalId }],
    draftKey,
  );
  return localId;
}
