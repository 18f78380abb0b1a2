import type { Database, Queryable } from '../../db/database';
import { ZERO_SITE_CODE, type SiteUpdate } from '#shared/schemas/site';
import { canUpdate, type Caller } from '../auth/types';
import { forbidden, notFound, validationFailed } from '../errors';
import { assertOwnAgency } from '../common/permissions';
import { isoOrNull } from './serialize-site';
import { siteColumns } from './site-columns';
import {
  assertCodeFree,
  assertCodeNotReserved,
  assertZeroSiteStaysActive,
  checkSiteDates,
  checkSiteLookups,
} from './site-rules';
import { lockSite, lockSiteCode, updateSite } from './site-store';
import type { SiteRow } from './site-row';
import { beginHistory } from '../history/record-history';

/**
 * Partial update (contract §6): unsent fields keep their values, null clears an optional field,
 * response-only fields are ignored. Technicians change only their own sites. The Zero Site keeps
 * its code and stays active; no other site takes 000000. A change of code or of the active period re-checks the code-in-use rule under the lock.
 */
export async function updateSiteRecord(
  db: Database,
  caller: Caller,
  id: number,
  parsed: SiteUpdate,
  now: Date,
): Promise<SiteRow> {
  return db.transaction(async (tx) => (await updateSiteIn(tx, caller, id, parsed, now)).row);
}

/**
 * updateSiteRecord on a transaction the caller holds (the batch route runs many in one).
 * `changed` is false when the body changed nothing (no history row was written).
 */
export async function updateSiteIn(
  tx: Queryable,
  caller: Caller,
  id: number,
  parsed: SiteUpdate,
  now: Date,
): Promise<{ row: SiteRow; changed: boolean }> {
  const { id: _id, add_date: _a, updated: _u, delete_date: _d, ...body } = parsed;
  assertOwnAgency(caller, body.agency, 'site');
  const existing = await lockSite(tx, caller.agencyId, id);
  if (!existing || existing.delete_date !== null) throw notFound('Site');
  if (!canUpdate(caller, existing.user_id)) {
    throw forbidden('Only a manager or the technician who created this site can change it');
  }
  const isZeroSite = existing.code === ZERO_SITE_CODE;
  if (isZeroSite && body.code !== undefined && body.code !== ZERO_SITE_CODE) {
    throw validationFailed([{ path: 'code', message: 'The Zero Site keeps code 000000' }]);
  }
  if (isZeroSite) assertZeroSiteStaysActive(body.deactive_date);
  else assertCodeNotReserved(body.code);
  await checkSiteLookups(tx, body);
  const columns = siteColumns(body);
  const activeDate =
    columns.active_date !== undefined ? columns.active_date : isoOrNull(existing.active_date);
  const deactiveDate =
    columns.deactive_date !== undefined ? columns.deactive_date : isoOrNull(existing.deactive_date);
  checkSiteDates(activeDate, deactiveDate);
  const affectsCode =
    body.code !== undefined || body.active_date !== undefined || body.deactive_date !== undefined;
  if (affectsCode && !isZeroSite) {
    const code = body.code ?? existing.code;
    await lockSiteCode(tx, caller.agencyId, code);
    const activeFrom = (activeDate as string | null) ?? new Date(existing.add_date).toISOString();
    await assertCodeFree(
      tx,
      caller.agencyId,
      code,
      activeFrom,
      id,
      (deactiveDate as string | null) ?? null,
    );
  }
  const history = await beginHistory(tx, caller, now, 'site', 'update', [id]);
  const row = await updateSite(tx, caller.agencyId, id, columns, now);
  const changed = await history.finish();
  return { row, changed: changed.length > 0 };
}
