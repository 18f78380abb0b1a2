import type { ObservabilitySet } from 'dexie';

/**
 * Where Dexie's `storagemutated` event names a table's writes: its parts are keyed
 * `idb://<database>/<table>/<index>`, the primary key's part with an empty index name (this
 * prefix itself), whose ranges are the keys written.
 */
export const tablePart = (dbName: string, table: string) => `idb://${dbName}/${table}/`;

/** Whether a `storagemutated` event carries a write to any of `tables` of database `dbName`. */
export function writesTo(
  parts: ObservabilitySet,
  dbName: string,
  tables: readonly string[],
): boolean {
  const prefixes = tables.map((t) => tablePart(dbName, t));
  return Object.keys(parts).some((part) => prefixes.some((p) => part.startsWith(p)));
}
