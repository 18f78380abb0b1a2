import type { Queryable, Row } from '../../db/database';
import { isInt4Id } from '../storable';

/**
 * Populated shapes of contract §4, by kind: the table and the columns a populated reference
 * shows. `user` never includes the password hash. Table and column names are constants here.
 */
export const SHAPES = {
  species: { table: 'species', columns: ['id', 'full_name', 'display_name', 'type'] },
  sex: { table: 'sex', columns: ['id', 'name', 'type'] },
  trap: { table: 'trap', columns: ['id', 'acronym', 'name', 'presence'] },
  lure: { table: 'lure', columns: ['id', 'code', 'description', 'weight'] },
  agency: { table: 'agency', columns: ['id', 'code', 'name', 'state_acronym', 'region'] },
  region: { table: 'region', columns: ['id', 'name', 'namelsad', 'type', 'geoid', 'parent'] },
  user: { table: 'app_user', columns: ['id', 'username', 'name'] },
  coordinate_precision: { table: 'coordinate_precision', columns: ['id', 'name', 'meters'] },
  land_usage: { table: 'land_usage', columns: ['id', 'name'] },
  test_method: { table: 'test_method', columns: ['id', 'name', 'acronym', 'sensitivity'] },
  test_target: { table: 'test_target', columns: ['id', 'acronym', 'name', 'vector', 'icd_10'] },
  test_status: { table: 'test_status', columns: ['id', 'name', 'description'] },
} as const;
export type ShapeKind = keyof typeof SHAPES;
export type Shape = Record<string, unknown> & { id: number };

/** PostgreSQL `numeric` arrives as a string; lookups show numbers. */
function normalize(row: Row): Shape {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row))
    out[k] = k === 'weight' && typeof v === 'string' ? Number(v) : v;
  return out as Shape;
}

/** Loads the shapes of the given ids (inactive entries included: old records still name them). */
export async function loadShapes(
  db: Queryable,
  kind: ShapeKind,
  ids: Iterable<number | null | undefined>,
): Promise<Map<number, Shape>> {
  const wanted = [
    ...new Set([...ids].filter((v): v is number => typeof v === 'number' && isInt4Id(v))),
  ];
  if (wanted.length === 0) return new Map();
  const { table, columns } = SHAPES[kind];
  const { rows } = await db.query(
    `select ${columns.join(', ')} from ${table} where id = any($1::int[])`,
    [wanted],
  );
  return new Map(rows.map((r) => [Number(r.id), normalize(r)]));
}

/**
 * Replaces `record[field]` (an id, or an array of ids) by its shape in every record, in one
 * query per call. A missing id becomes null (an array drops it).
 */
export async function populateRefs<T extends Record<string, unknown>>(
  db: Queryable,
  records: T[],
  field: string,
  kind: ShapeKind,
): Promise<void> {
  const ids: number[] = [];
  for (const r of records) {
    const v = r[field];
    if (Array.isArray(v)) ids.push(...(v as number[]));
    else if (typeof v === 'number') ids.push(v);
  }
  const shapes = await loadShapes(db, kind, ids);
  for (const r of records) {
    const v = r[field];
    const target = r as Record<string, unknown>;
    if (Array.isArray(v))
      target[field] = (v as number[]).map((id) => shapes.get(id)).filter(Boolean);
    else if (typeof v === 'number') target[field] = shapes.get(v) ?? null;
  }
}

/** Every active entry of a lookup, ordered by id, in its populated shape (contract §5 lists). */
export async function listActive(db: Queryable, kind: ShapeKind): Promise<Shape[]> {
  const { table, columns } = SHAPES[kind];
  const hasActive = !['agency', 'region', 'user'].includes(kind);
  const { rows } = await db.query(
    `select ${columns.join(', ')} from ${table}${hasActive ? ' where active' : ''} order by id`,
  );
  return rows.map(normalize);
}

/**
 * Ids among `ids` that are not active entries of the lookup: for 422 "unknown or inactive" errors
 * on create (contract §5).
 */
export async function unknownLookupIds(
  db: Queryable,
  kind: ShapeKind,
  ids: readonly number[],
): Promise<number[]> {
  const storable = ids.filter(isInt4Id);
  if (storable.length === 0) return [...ids];
  const { table } = SHAPES[kind];
  const hasActive = !['agency', 'region', 'user'].includes(kind);
  const { rows } = await db.query<{ id: number }>(
    `select id from ${table} where id = any($1::int[])${hasActive ? ' and active' : ''}`,
    [[...new Set(storable)]],
  );
  const found = new Set(rows.map((r) => Number(r.id)));
  return ids.filter((id) => !found.has(id));
}
