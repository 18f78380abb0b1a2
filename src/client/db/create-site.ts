import type { SiteCreate } from '#shared';
import type { TraplineDb } from './database';
import { createRecords } from './create-records';

/** Saves a new site and its create entry in one transaction; returns its localId. */
export async function createSite(
  db: TraplineDb,
  data: SiteCreate,
  /** The key of the form draft it was typed in, deleted with it (see createRecords). */
  draftKey?: string,
): Promise<string> {
  const [localId] = await createRecords(db, 'site', [{ data, parentLocalId: null }], draftKey);
  return localId;
}
