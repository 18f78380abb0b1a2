import type { Queryable, Row } from '../../db/database';
import type { ListQuery } from './list-spec';

export type ListSql = {
  /** Select list, e.g. `s.*`. */
  select: string;
  /** From clause with joins, e.g. `site s`. */
  from: string;
  /** The resource's own conditions (agency scoping!), with placeholders $1..$k. */
  where: string;
  /** Values of $1..$k; `parseListQuery` must have been called with `firstParam: k + 1`. */
  params: unknown[];
  /**
   * Optional: a query answering `{count}` = the number of rows matching `where` alone, cheaper
   * than counting them (a maintained counter); used when the request has no condition of its
   * own. It must be exact: the answer's `count` is the contract's total.
   */
  unfilteredCount?: { sql: string; params: unknown[] };
};

/**
 * Runs the page query and the count of a list: `{rows, count}` where count is every matching
 * row before paging (contract §4). The count, the one part whose cost grows with the table, is
 * skipped when the page itself proves it (a short page that is the first or holds rows ends the
 * list: count = offset + rows), and read from `unfilteredCount` when the request filters nothing.
 */
export async function runList<T extends Row = Row>(
  db: Queryable,
  sql: ListSql,
  q: ListQuery,
): Promise<{ rows: T[]; count: number }> {
  if (q.firstParam !== sql.params.length + 1) {
    throw new Error(
      `parseListQuery was called with firstParam ${q.firstParam}, expected ${sql.params.length + 1}`,
    );
  }
  const where = `(${sql.where}) and ${q.whereSql}`;
  const params = [...sql.params, ...q.params];
  const n = params.length;
  const page = await db.query<T>(
    `select ${sql.select} from ${sql.from} where ${where} order by ${q.orderBy} limit $${n + 1} offset $${n + 2}`,
    [...params, q.limit, q.offset],
  );
  const rows = page.rows;
  if (rows.length < q.limit && (rows.length > 0 || q.offset === 0)) {
    return { rows, count: q.offset + rows.length };
  }
  const counted =
    sql.unfilteredCount && q.whereSql === 'true'
      ? await db.query<{ count: number | string }>(
          sql.unfilteredCount.sql,
          sql.unfilteredCount.params,
        )
      : await db.query<{ count: number }>(
          `select count(*)::int as count from ${sql.from} where ${where}`,
          params,
        );
  return { rows, count: Number(counted.rows[0]?.count ?? 0) };
}

/**
 * The `unfilteredCount` of a list of active collections, pools (of one species type) or pool
 * tests of an agency: the counter the database's triggers keep (migration 4).
 */
export function liveCount(
  table: 'collection' | 'pool' | 'pool_test',
  agency: number,
  speciesType = '',
): NonNullable<ListSql['unfilteredCount']> {
  return {
    sql: `select coalesce(sum(n), 0)::int as count from live_record_count
           where table_name = $1 and agency = $2 and species_type = $3`,
    params: [table, agency, speciesType],
  };
}
