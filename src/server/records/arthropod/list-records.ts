import type { Queryable, Row } from '../../db/database';
import type { ListQuery, ListSpec } from './list-query';

const SQL_OP = { $eq: '=', $ne: '<>', $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' } as const;

/**
 * Runs a parsed list query: `from` is the FROM clause, `where` the conditions every row must
 * meet (the caller's agency first), with `params` bound to them. Every request value is bound as
 * a parameter; column expressions come from the spec. Returns the page of IDs and the total.
 */
export async function listIds(
  q: Queryable,
  spec: ListSpec,
  list: ListQuery,
  base: { from: string; idColumn: string; where: string[]; params: unknown[] },
): Promise<{ ids: number[]; count: number }> {
  const params = [...base.params];
  const where = [...base.where];
  const bind = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  for (const c of list.conditions) {
    const col = spec.fields[c.field].sql;
    if (c.op === '$in') {
      const nonNull = c.values.filter((v) => v !== null);
      const parts = nonNull.map((v) => bind(v));
      const alts = [
        ...(parts.length ? [`${col} in (${parts.join(', ')})`] : []),
        ...(nonNull.length < c.values.length ? [`${col} is null`] : []),
      ];
      where.push(`(${alts.join(' or ')})`);
    } else if (c.op === '$between') {
      where.push(`${col} between ${bind(c.values[0])} and ${bind(c.values[1])}`);
    } else if (c.values[0] === null && (c.op === '$eq' || c.op === '$ne')) {
      where.push(`${col} is ${c.op === '$eq' ? '' : 'not '}null`);
    } else {
      where.push(`${col} ${SQL_OP[c.op]} ${bind(c.values[0])}`);
    }
  }
  if (list.search) {
    // Case-insensitive substring: the pattern's own % and _ are escaped, then bound.
    const pattern = bind(`%${list.search.text.replace(/[\\%_]/g, (m) => `\\${m}`)}%`);
    where.push(
      `(${list.search.fields.map((f) => `${spec.fields[f].sql} ilike ${pattern}`).join(' or ')})`,
    );
  }
  const whereSql = where.length ? `where ${where.join(' and ')}` : '';
  const { rows: counted } = await q.query<{ n: number }>(
    `select count(*)::int as n from ${base.from} ${whereSql}`,
    params,
  );
  const dir = list.sort.desc ? 'desc' : 'asc';
  const order = `${spec.fields[list.sort.field].sql} ${dir} nulls last, ${base.idColumn} ${dir}`;
  const { rows } = await q.query<{ id: number }>(
    `select ${base.idColumn} as id from ${base.from} ${whereSql} order by ${order} limit ${bind(list.pageSize)} offset ${bind((list.page - 1) * list.pageSize)}`,
    params,
  );
  return { ids: rows.map((r) => r.id), count: Number(counted[0].n) };
}

/** `fields[]`: only the named fields of each row, `id` always first. */
export function pickFields(records: Row[], fields: string[] | null): Row[] {
  if (!fields) return records;
  return records.map((r) => {
    const out: Row = { id: r.id };
    for (const f of fields) if (f !== 'id' && f in r) out[f] = r[f];
    return out;
  });
}
