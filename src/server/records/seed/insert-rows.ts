import type { Queryable } from '../../db/database';

/**
 * Inserts rows (all with the same keys) in one statement with bound values, then moves the
 * table's id sequence past the largest id so later inserts without an id do not collide.
 * Table and column names come from this module's own constants, never from input.
 */
export async function insertRows(
  db: Queryable,
  table: string,
  rows: ReadonlyArray<Record<string, unknown>>,
): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]);
  const params: unknown[] = [];
  const tuples = rows.map(
    (row) =>
      `(${columns.map((c) => (params.push(row[c] ?? null), `$${params.length}`)).join(', ')})`,
  );
  await db.query(
    `insert into ${table} (${columns.join(', ')}) values ${tuples.join(', ')}`,
    params,
  );
  if (columns.includes('id')) {
    await db.query(
      `select setval(pg_get_serial_sequence('${table}', 'id'), (select max(id) from ${table}))`,
    );
  }
}
