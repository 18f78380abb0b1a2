import type { Database } from '../../db/database';
import { ZERO_SITE_CODE } from '#shared/schemas/site';
import type { Caller } from '../auth/types';
import { forbidden, notFound, validationFailed } from '../errors';
import { lockSite, markSiteDeleted } from './site-store';
import type { SiteRow } from './site-row';
import { beginHistory } from '../history/record-history';

/** Managers retire a site by setting delete_date; the Zero Site is never deleted (contract §6). */
export async function deleteSite(
  db: Database,
  caller: Caller,
  id: number,
  now: Date,
): Promise<SiteRow> {
  return db.transaction(async (tx) => {
    const existing = await lockSite(tx, caller.agencyId, id);
    if (!existing || existing.delete_date !== null) throw notFound('Site');
    if (caller.role !== 'manager') throw forbidden('Only a manager can delete a site');
    if (existing.code === ZERO_SITE_CODE) {
      throw validationFailed(
        [{ path: 'code', message: 'The Zero Site cannot be deleted' }],
        'validation_failed',
        'The Zero Site cannot be deleted',
      );
    }
    const history = await beginHistory(tx, caller, now, 'site', 'delete', [id]);
    const row = await markSiteDeleted(tx, caller.agencyId, id, now);
    await history.finish();
    return row;
  });
}
