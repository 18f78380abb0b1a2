import type { Database, Queryable, Row } from '../../db/database';
import type { List } from '#shared/schemas/list';
import type { Caller } from '../auth/types';
import { applyFields } from './apply-fields';
import type { ListQuery } from './list-spec';
import { liveCount, runList } from './run-list';

/** How one kind of retirable record (collection, pool, pool test) is listed. */
export type ActiveRecordKind = {
  /** Its table, and the alias its list fields' SQL uses (`c` in `c.site`). */
  table: 'collection' | 'pool' | 'pool_test';
  alias: string;
  /** Its records, as answered, for the ids of a page (in that order). */
  records: (q: Queryable, agency: number, ids: number[]) => Promise<Row[]>;
  /** Adds the `populate[]` names asked for to `records`. */
  populate: (
    q: Queryable,
    agency: number,
    records: Row[],
    names: readonly string[],
  ) => Promise<void>;
};

/**
 * Narrows a list beyond the agency's active records: `where` uses $2..$k with `params` (call
 * parseListQuery with `firstParam: k + 1`); `speciesType` names the live counter it is counted by.
 */
export type ListNarrowing = { where: string; params: unknown[]; speciesType: string };

const EVERY_ACTIVE: ListNarrowing = { where: '', params: [], speciesType: '' };

/**
 * GET of a list of the caller's agency's active (not retired) records (contract §4): the page the
 * parsed query `q` asks for, its records populated and cut to the fields asked for, and the count
 * (parseListQuery with `firstParam: 2`, or past the narrowing's params).
 */
export async function listActiveRecords(
  db: Database,
  caller: Caller,
  q: ListQuery,
  kind: ActiveRecordKind,
  narrowing: ListNarrowing = EVERY_ACTIVE,
): Promise<List<unknown>> {
  const a = kind.alias;
  const { rows, count } = await runList<{ id: number }>(
    db,
    {
      select: `${a}.id`,
      from: `${kind.table} ${a}`,
      where: `${a}.agency = $1 and ${a}.deactive_date is null${narrowing.where ? ` and ${narrowing.where}` : ''}`,
      params: [caller.agencyId, ...narrowing.params],
      unfilteredCount: liveCount(kind.table, caller.agencyId, narrowing.speciesType),
    },
    q,
  );
  const records = await kind.records(
    db,
    caller.agencyId,
    rows.map((r) => r.id),
  );
  await kind.populate(db, caller.agencyId, records, q.populate);
  return { rows: applyFields(records as { id: unknown }[], q.fields), count };
}
