import type { Queryable, Row } from '../../db/database';
import { isInt4Id } from '../storable';
import type { ListFieldType } from '../list';

/**
 * Populated shapes of contract §4, by kind: the table and the columns a populated reference
 * shows, in order, with the list type of each (what `/v1/<lookup>` lists filter and sort by).
 * `user` never includes the password hash. Table and column names are constants here.
 */
export const SHAPES = {
  species: {
    table: 'species',
    columns: { id: 'int', full_name: 'text', display_name: 'text', type: 'text' },
  },
  sex: { table: 'sex', columns: { id: 'int', name: 'text', type: 'text' } },
  trap: {
    table: 'trap',
    columns: { id: 'int', acronym: 'text', name: 'text', presence: 'bool' },
  },
  lure: {
    table: 'lure',
    columns: { id: 'int', code: 'text', description: 'text', weight: 'float' },
  },
  agency: {
    table: 'agency',
    columns: { id: 'int', code: 'text', name: 'text', state_acronym: 'text', region: 'int' },
  },
  region: {
    table: 'region',
    columns: {
      id: 'int',
      name: 'text',
      namelsad: 'text',
      type: 'text',
      geoid: 'text',
      parent: 'int',
    },
  },
  user: { table: 'app_user', columns: { id: 'int', username: 'text', name: 'text' } },
  coordinate_precision: {
    table: 'coordinate_precision',
    columns: { id: 'int', name: 'text', meters: 'float' },
  },
  land_usage: { table: 'land_usage', columns: { id: 'int', name: 'text' } },
  test_method: {
    table: 'test_method',
    columns: { id: 'int', name: 'text', acronym: 'text', sensitivity: 'int' },
  },
  test_target: {
    table: 'test_target',
    columns: { id: 'int', acronym: 'text', name: 'text', vector: 'text', icd_10: 'text' },
  },
  test_status: {
    table: 'test_status',
    columns: { id: 'int', name: 'text', description: 'text' },
  },
} as const satisfies Record<
  string,
  { table: string; columns: { id: 'int' } & Record<string, ListFieldType> }
>;
export type ShapeKind = keyof typeof SHAPES;
export type Shape = Record<string, unknown> & { id: number };

/** PostgreSQL `numeric` arrives as a string; lookups show numbers. */
export function normalizeShape(row: Row): Shape {
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
    `select ${Object.keys(columns).join(', ')} from ${table} where id = any($1::int[])`,
    [wanted],
  );
  return new Map(rows.map((r) => [Number(r.id), normalizeShape(r)]));
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

/** Kinds without an `active` flag: every agency and region is listed (contract §5). */
export function hasActiveFlag(kind: ShapeKind): boolean {
  return !['agency', 'region', 'user'].includes(kind);
}

/**
 * One select reading which of the ids of each kind are known and active (columns kind, id), as a
 * `union all` of one indexed read per kind, with its parameters in `params`: one round trip for
 * every kind a record names. Null when no id can be stored (every one is then unknown).
 */
function lookupReadSql(
  idsByKind: ReadonlyMap<ShapeKind, readonly number[]>,
  params: unknown[],
): string | null {
  const parts: string[] = [];
  for (const [kind, ids] of idsByKind) {
    const storable = [...new Set(ids.filter(isInt4Id))];
    if (storable.length === 0) continue;
    params.push(kind, storable);
    // Table names come from SHAPES, never from a request.
    parts.push(
      `select $${params.length - 1}::text as kind, id from ${SHAPES[kind].table}
        where id = any($${params.length}::int[])${hasActiveFlag(kind) ? ' and active' : ''}`,
    );
  }
  return parts.length > 0 ? parts.join(' union all ') : null;
}

/** The ids of each kind that are not among `found` (unknown or inactive). */
export function unknownAmong(
  idsByKind: ReadonlyMap<ShapeKind, readonly number[]>,
  found: Iterable<{ kind: string; id: number }>,
): Map<ShapeKind, number[]> {
  const known = new Set([...found].map((r) => `${r.kind}:${Number(r.id)}`));
  return new Map(
    [...idsByKind].map(([kind, ids]) => [kind, ids.filter((id) => !known.has(`${kind}:${id}`))]),
  );
}

/**
 * The ids of each kind that are unknown or inactive (for 422s naming the field, contract §5),
 * for several kinds in one statement (lookupReadSql).
 */
export async function unknownLookupIdsByKind(
  db: Queryable,
  idsByKind: ReadonlyMap<ShapeKind, readonly number[]>,
): Promise<Map<ShapeKind, number[]>> {
  const params: unknown[] = [];
  const sql = lookupReadSql(idsByKind, params);
  const { rows } = sql ? await db.query<{ kind: string; id: number }>(sql, params) : { rows: [] };
  return unknownAmong(idsByKind, rows);
}
