import type { Queryable, Row } from '../../db/database';
import { isoDate } from '../common/iso-date';
import { loadShapes } from '../populate';

/** A pool test as the service returns it (contract §6 response fields, `id` first). */
export function poolTestRecord(t: Row): Row {
  return {
    id: t.id,
    pool: t.pool,
    method: t.method,
    target: t.target,
    status: t.status,
    test_date: isoDate(t.test_date),
    test_agency: t.test_agency,
    value: t.value,
    comments: t.comments,
    user: t.user_id,
    agency: t.agency,
    add_date: isoDate(t.add_date),
    updated: isoDate(t.updated),
    deactive_date: isoDate(t.deactive_date),
  };
}

/** Pool tests of the agency by ID, in the order of `ids` (others' and unknown IDs skipped). */
export async function poolTestRecords(q: Queryable, agency: number, ids: number[]): Promise<Row[]> {
  if (ids.length === 0) return [];
  const { rows } = await q.query(
    'select * from pool_test where agency = $1 and id = any($2::int[])',
    [agency, ids],
  );
  const byId = new Map(rows.map((t) => [t.id as number, poolTestRecord(t)]));
  return ids.flatMap((id) => (byId.has(id) ? [byId.get(id) as Row] : []));
}

/**
 * The populated test of contract §4: `{id, value, test_date, method{…}, target{…}, status, agency}`
 * with `agency` the testing agency; `status` is populated only when asked (`withStatus`).
 */
export async function populatedTests(
  q: Queryable,
  tests: Row[],
  withStatus: boolean,
): Promise<Row[]> {
  const methods = await loadShapes(
    q,
    'test_method',
    tests.map((t) => t.method as number),
  );
  const targets = await loadShapes(
    q,
    'test_target',
    tests.map((t) => t.target as number),
  );
  const statuses = withStatus
    ? await loadShapes(
        q,
        'test_status',
        tests.map((t) => t.status as number),
      )
    : new Map<number, Row>();
  const agencies = await loadShapes(
    q,
    'agency',
    tests.map((t) => t.test_agency as number),
  );
  return tests.map((t) => ({
    id: t.id,
    value: t.value,
    test_date: isoDate(t.test_date),
    method: methods.get(t.method as number) ?? t.method,
    target: targets.get(t.target as number) ?? t.target,
    status: statuses.get(t.status as number) ?? t.status,
    agency: agencies.get(t.test_agency as number) ?? t.test_agency,
  }));
}

/**
 * Each pool's definitive result (contract §6): among its active tests, the one with the most
 * sensitive method (higher `sensitivity` is more sensitive; unknown sensitivity ranks last),
 * then the latest `test_date`, then the latest `add_date` (then the highest id, so ties on the
 * same instant still pick one test deterministically). Keyed by pool ID.
 */
export async function definitiveTests(q: Queryable, poolIds: number[]): Promise<Map<number, Row>> {
  if (poolIds.length === 0) return new Map();
  const { rows } = await q.query(
    `select distinct on (t.pool) t.*
       from pool_test t join test_method m on m.id = t.method
      where t.pool = any($1::int[]) and t.deactive_date is null
      order by t.pool, m.sensitivity desc nulls last, t.test_date desc, t.add_date desc, t.id desc`,
    [poolIds],
  );
  return new Map(rows.map((t) => [t.pool as number, t]));
}

/** Active tests of pools (raw rows), by pool ID, oldest first. */
export async function activeTests(q: Queryable, poolIds: number[]): Promise<Map<number, Row[]>> {
  const out = new Map<number, Row[]>();
  if (poolIds.length === 0) return out;
  const { rows } = await q.query(
    'select * from pool_test where pool = any($1::int[]) and deactive_date is null order by test_date, id',
    [poolIds],
  );
  for (const t of rows) out.set(t.pool as number, [...(out.get(t.pool as number) ?? []), t]);
  return out;
}
