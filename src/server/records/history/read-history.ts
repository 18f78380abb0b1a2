import type { Database } from '../../db/database';
import type { HistoryList, HistoryRow } from '#shared/schemas/history';
import { isoDateInput } from '#shared/schemas/common';
import type { FieldError } from '#shared/schemas/error';
import type { Caller } from '../auth/types';
import { forbidden, notFound, validationFailed } from '../errors';
import { applyFields, parseListQuery, runList } from '../list';
import { isInt4Id, storableDate } from '../storable';
import { HISTORY_ENTITIES, HISTORY_TABLE, type HistoryEntity } from './history-entity';
import { HISTORY_LIST } from './history-list-spec';
import { normalized } from './read-snapshots';

type StoredRow = {
  id: number | string;
  at: Date | string;
  user_id: number | null;
  full_name: string | null;
  action: HistoryRow['action'];
  entity: HistoryEntity;
  record_id: number;
  changes: HistoryRow['changes'] | string;
};

const SELECT = `h.id, h.at, h.user_id, u.name as full_name, h.action, h.entity, h.record_id,
  h.changes`;
const FROM = 'record_history h left join app_user u on u.id = h.user_id';

/** What a person sees for a write made with an agency token (no person behind it). */
const AGENCY_TOKEN_NAME = 'Agency token';

/**
 * GET /v1/history (contract §11), oldest first:
 * - `entity=site|collection|pool|test&id=N`: one record's history, for anyone who may GET the
 *   record: a record of another agency, or none, is 404 as its GET is (never revealing it exists).
 *   A deleted record keeps its history (it is most asked for then).
 * - `since=ISO date`: every change of the agency from then on, managers only (403 otherwise).
 * Either form, never both; the shared list parameters (§4) page and filter both.
 */
export async function readHistory(db: Database, caller: Caller, url: string): Promise<HistoryList> {
  // Read once for the form asked (and every parameter's 422), then with the placeholders of
  // that form: both bind every value.
  const { entity, id, since } = parseListQuery(url, HISTORY_LIST).extra;
  const problems: FieldError[] = [];
  const forRecord = entity !== undefined || id !== undefined;
  if (forRecord && since !== undefined) {
    problems.push({ path: 'since', message: 'Ask for one record (entity and id) or since a date' });
  } else if (!forRecord && since === undefined) {
    problems.push({
      path: 'entity',
      message: 'Send entity and id for a record, or since for the agency',
    });
  }
  let where: string;
  let params: unknown[];
  if (forRecord) {
    if (!HISTORY_ENTITIES.includes(entity as HistoryEntity)) {
      problems.push({
        path: 'entity',
        message: `entity must be one of ${HISTORY_ENTITIES.join(', ')}`,
      });
    }
    const recordId = /^[1-9]\d{0,9}$/.test(id ?? '') ? Number(id) : NaN;
    if (!isInt4Id(recordId))
      problems.push({ path: 'id', message: 'id must be a record id (a positive whole number)' });
    if (problems.length > 0) throw validationFailed(problems);
    const table = HISTORY_TABLE[entity as HistoryEntity];
    // The same agency rule as the record's GET: another agency's record is not found.
    const { rows } = await db.query(`select 1 from ${table} where id = $1 and agency = $2`, [
      recordId,
      caller.agencyId,
    ]);
    if (rows.length === 0)
      throw notFound(entity === 'test' ? 'Pool test' : capitalized(entity as string));
    where = 'h.agency = $1 and h.entity = $2 and h.record_id = $3';
    params = [caller.agencyId, entity, recordId];
  } else {
    if (caller.role !== 'manager') {
      throw forbidden("Only a manager can list the agency's changes");
    }
    const from =
      since !== undefined && isoDateInput.safeParse(since).success ? storableDate(since) : null;
    if (from === null) {
      problems.push({ path: 'since', message: 'since must be a date like 2026-07-14' });
    }
    if (problems.length > 0) throw validationFailed(problems);
    where = 'h.agency = $1 and h.at >= $2::timestamptz';
    params = [caller.agencyId, from];
  }
  const q = parseListQuery(url, HISTORY_LIST, { firstParam: params.length + 1 });
  const { rows, count } = await runList<StoredRow>(
    db,
    { select: SELECT, from: FROM, where, params },
    q,
  );
  return { rows: applyFields(rows.map(historyRowOf), q.fields) as HistoryRow[], count };
}

/** Dates as the contract writes them (§3): a create's row keeps them as the database wrote them. */
function utcDates(changes: HistoryRow['changes']): HistoryRow['changes'] {
  return Object.fromEntries(
    Object.entries(changes).map(([k, [was, is]]) => [k, [normalized(was), normalized(is)]]),
  );
}

const capitalized = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function historyRowOf(r: StoredRow): HistoryRow {
  return {
    id: Number(r.id),
    at: new Date(r.at).toISOString(),
    user:
      r.user_id === null
        ? { id: null, full_name: AGENCY_TOKEN_NAME }
        : { id: r.user_id, full_name: r.full_name },
    action: r.action,
    entity: r.entity,
    record: r.record_id,
    changes: utcDates(typeof r.changes === 'string' ? JSON.parse(r.changes) : r.changes),
  };
}
