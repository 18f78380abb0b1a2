import type { Queryable, Row } from '../../db/database';

/**
 * The populated shape of each lookup (contract §4). Column lists are fixed here, never taken
 * from a request; `app_user` never exposes its password hash.
 */
const SHAPES = {
  species: ['id', 'full_name', 'display_name', 'type'],
  sex: ['id', 'name', 'type'],
  trap: ['id', 'acronym', 'name', 'presence'],
  lure: ['id', 'code', 'description', 'weight'],
  agency: ['id', 'code', 'name', 'state_acronym', 'region'],
  app_user: ['id', 'username', 'name'],
  coordinate_precision: ['id', 'name', 'meters'],
  test_method: ['id', 'name', 'acronym', 'sensitivity'],
  test_target: ['id', 'acronym', 'name', 'vector', 'icd_10'],
  test_status: ['id', 'name', 'description'],
} as const;
export type ShapedTable = keyof typeof SHAPES;

/** Loads lookup entries by ID in their populated shape (inactive ones too: old records keep them). */
export async function lookupRecords(
  q: Queryable,
  table: ShapedTable,
  ids: Iterable<number | null | undefined>,
): Promise<Map<number, Row>> {
  const wanted = [...new Set([...ids].filter((v): v is number => typeof v === 'number'))];
  if (wanted.length === 0) return new Map();
  const { rows } = await q.query(
    `select ${SHAPES[table].join(', ')} from ${table} where id = any($1::int[])`,
    [wanted],
  );
  return new Map(
    rows.map((r) => {
      // numeric columns arrive as strings; the lure weight is a number to its users.
      if (table === 'lure' && r.weight !== null) r.weight = Number(r.weight);
      return [r.id as number, r];
    }),
  );
}

/**
 * Replaces the ID in `field` of every record by the lookup entry it names (the key keeps its
 * place, so `id` stays first). IDs with no entry are left as they are.
 */
export async function populateField(
  q: Queryable,
  records: Row[],
  field: string,
  table: ShapedTable,
): Promise<void> {
  const found = await lookupRecords(
    q,
    table,
    records.map((r) => r[field] as number | null),
  );
  for (const r of records) {
    const v = r[field];
    if (typeof v === 'number' && found.has(v)) r[field] = found.get(v);
  }
}
