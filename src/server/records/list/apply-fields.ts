/** A record with `id` as its first key (contract §4: clients rename the first column). */
export function withIdFirst<T extends { id: unknown }>(record: T): T {
  const { id, ...rest } = record;
  return { id, ...rest } as T;
}

/**
 * Applies `fields[]` to serialized records: only the named fields, in the order asked, `id`
 * always kept and always first. `null` fields → every field, still with `id` first.
 */
export function applyFields<T extends { id: unknown }>(
  rows: readonly T[],
  fields: readonly string[] | null,
): Record<string, unknown>[] {
  if (!fields) return rows.map((r) => withIdFirst(r));
  return rows.map((row) => {
    const out: Record<string, unknown> = { id: row.id };
    for (const f of fields)
      if (f !== 'id' && Object.hasOwn(row, f)) out[f] = (row as Record<string, unknown>)[f];
    return out;
  });
}
