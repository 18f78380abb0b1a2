import type { SiteCreate } from '#shared';
import type { TraplineDb } from './database';
import { updateRecord } from './update-record';

/**
 * Saves an edited site (complete new data) following the outbox rules; false when nothing changed.
 * `opened`: the data the form opened with (see updateRecord).
 */
export function updateSite(
  db: TraplineDb,
  localId: string,
  data: SiteCreate,
  opened?: Record<string, unknown>,
  /** The key of the form draft it was typed in, deleted with the edit (see updateRecord). */
  draftKey?: string,
): Promise<boolean> {
  return updateRecord(db, 'site', localId, data, opened, draftKey);
}
