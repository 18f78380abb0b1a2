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
};

/**
 * Runs the count and the page query of a list: `{rows, count}` where count is every matching
 * row before paging (contract §4).
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
  const counted = await db.query<{ count: number }>(
    `select count(*)::int as count from ${sql.from} where ${where}`,
    params,
  );
  const n = params.length;
  const page = await db.query<T>(
    `select ${sql.select} from ${sql.from} where ${where} order by ${q.orderBy} limit $${n + 1} offset $${n + 2}`,
    [...params, q.limit, q.offset],
  );
  return { rows: page.rows, count: Number(counted.rows[0]?.count ?? 0) };
}
