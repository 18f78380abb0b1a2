import type { Queryable } from '../../db/database';
import type { List } from '#shared/schemas/list';
import { applyFields, parseListQuery, runList, type ListSpec } from '../list';
import { hasActiveFlag, normalizeShape, SHAPES, type Shape, type ShapeKind } from './lookup-shapes';

/** What a lookup list can expand beyond its shape, e.g. the agency list's `shape` and `region`. */
export type LookupExpansion = {
  /** Names allowed in `populate[]` (others → 422). */
  names: readonly string[];
  /** Fields the expansion may add, so `fields[]` can name them. */
  outputFields?: readonly string[];
  /** Expands the page's rows in place for the names asked. */
  apply(db: Queryable, rows: Shape[], names: readonly string[]): Promise<void>;
};

/** Every column of a lookup's shape filters, sorts and (text) searches, as on the record lists. */
export function lookupListSpec(kind: ShapeKind, expansion?: LookupExpansion): ListSpec {
  const { columns } = SHAPES[kind];
  const fields: ListSpec['fields'] = {};
  for (const [name, type] of Object.entries(columns)) fields[name] = { sql: `l.${name}`, type };
  return {
    fields,
    outputFields: [...Object.keys(columns), ...(expansion?.outputFields ?? [])],
    populate: expansion?.names ?? [],
  };
}

/**
 * A lookup list (`/v1/species`, `/v1/region`, …, contract §5): the active entries in their
 * populated shape, with the shared list parameters of contract §4 (`page`, `pageSize` /
 * `page_size` up to 1000, `sort`, `query[…]`, `search`, `fields[]`, `populate[]`) parsed exactly
 * as the record lists parse them. `count` is every match before paging, so a page past the end
 * is empty: that empty page is how the public R client stops reading a list.
 */
export async function listLookup(
  db: Queryable,
  kind: ShapeKind,
  url: string,
  expansion?: LookupExpansion,
): Promise<List<Record<string, unknown>>> {
  const { table, columns } = SHAPES[kind];
  const q = parseListQuery(url, lookupListSpec(kind, expansion));
  const { rows, count } = await runList(
    db,
    {
      select: Object.keys(columns)
        .map((c) => `l.${c}`)
        .join(', '),
      from: `${table} l`,
      where: hasActiveFlag(kind) ? 'l.active' : 'true',
      params: [],
    },
    q,
  );
  const shapes = rows.map(normalizeShape);
  if (expansion && q.populate.length > 0) await expansion.apply(db, shapes, q.populate);
  return { rows: applyFields(shapes, q.fields), count };
}
