import type { Snapshot } from './read-snapshots';

/** `{field: [before, after]}` for every field whose value differs (contract §11). */
export type Changes = Record<string, [unknown, unknown]>;

/** JSON with object keys sorted: equal values compare equal whatever their key order. */
function canonical(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
    a < b ? -1 : a > b ? 1 : 0,
  );
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
}

/**
 * The fields that differ between two snapshots of one record; a missing snapshot (before a
 * create) has every field null, so a create lists every field it set. A field absent on one
 * side counts as null (a column added by a later migration is no change by itself).
 */
export function changesBetween(before: Snapshot | null, after: Snapshot | null): Changes {
  const changes: Changes = {};
  const keys = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])].sort();
  for (const key of keys) {
    const was = before?.[key] ?? null;
    const is = after?.[key] ?? null;
    const empty = (v: unknown) => v === null || (Array.isArray(v) && v.length === 0);
    // A create lists what it set: an empty set or a null field is not something it set.
    if (before === null && empty(is)) continue;
    if (canonical(was) !== canonical(is)) changes[key] = [was, is];
  }
  return changes;
}
