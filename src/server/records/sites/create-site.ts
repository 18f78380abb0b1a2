import type { Database } from '../../db/database';
import type { SiteCreate } from '#shared/schemas/site';
import type { Caller } from '../auth/types';
import { assertOwnAgency } from '../common/permissions';
import { siteColumns } from './site-columns';
import {
  agencyRegion,
  assertCodeFree,
  assertCodeNotReserved,
  checkSiteDates,
  checkSiteLookups,
} from './site-rules';
import { insertSite, lockSiteCode } from './site-store';
import type { SiteRow } from './site-row';
import { historyOfCreate } from '../history/record-history';

/**
 * Creates a site in one transaction: lookups checked, region defaulted to the agency's, then the
 * code-in-use rule checked and the row inserted while holding the (agency, code) lock.
 */
export async function createSite(
  db: Database,
  caller: Caller,
  body: SiteCreate,
  now: Date,
): Promise<SiteRow> {
  assertOwnAgency(caller, body.agency, 'site');
  assertCodeNotReserved(body.code);
  return db.transaction(async (tx) => {
    await checkSiteLookups(tx, body);
    const columns = siteColumns(body);
    if (columns.region == null) columns.region = await agencyRegion(tx, caller.agencyId);
    checkSiteDates(columns.active_date, columns.deactive_date);
    await lockSiteCode(tx, caller.agencyId, body.code);
    // A site without an active_date starts being used now.
    const activeFrom = (columns.active_date as string | null | undefined) ?? now.toISOString();
    await assertCodeFree(tx, caller.agencyId, body.code, activeFrom, null);
    const row = await insertSite(tx, caller.agencyId, caller.userId, columns, now);
    await historyOfCreate(tx, caller, now, 'site', row.id);
    return row;
  });
}
