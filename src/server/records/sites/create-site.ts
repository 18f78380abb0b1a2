import type { Database } from '../../db/database';
import type { SiteCreate } from '#shared/schemas/site';
import type { Caller } from '../auth/types';
import { assertOwnAgency } from '../common/permissions';
import { siteColumns, type SiteColumn } from './site-columns';
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

/** A create's columns after the checks that need no database (shared by POST and the batch). */
export type PreparedCreate = {
  code: string;
  columns: Partial<Record<SiteColumn, unknown>>;
  /** When the new site starts using its code: its active_date, else now. */
  activeFrom: string;
};

/**
 * The rules of a site create that need no database: the caller's own agency (403), the reserved
 * Zero Site code (409), storable dates in order (422). Throws the contract's error.
 */
export function prepareSiteCreate(caller: Caller, body: SiteCreate, now: Date): PreparedCreate {
  assertOwnAgency(caller, body.agency, 'site');
  assertCodeNotReserved(body.code);
  const columns = siteColumns(body);
  checkSiteDates(columns.active_date, columns.deactive_date);
  // A site without an active_date starts being used now.
  const activeFrom = (columns.active_date as string | null | undefined) ?? now.toISOString();
  return { code: body.code, columns, activeFrom };
}

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
  const { columns, activeFrom } = prepareSiteCreate(caller, body, now);
  return db.transaction(async (tx) => {
    await checkSiteLookups(tx, body);
    if (columns.region == null) columns.region = await agencyRegion(tx, caller.agencyId);
    await lockSiteCode(tx, caller.agencyId, body.code);
    await assertCodeFree(tx, caller.agencyId, body.code, activeFrom, null);
    const row = await insertSite(tx, caller.agencyId, caller.userId, columns, now);
    await historyOfCreate(tx, caller, now, 'site', [row.id]);
    return row;
  });
}
