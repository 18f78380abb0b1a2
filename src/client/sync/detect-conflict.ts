import type { OutboxEntry } from '#shared';
import { sameValue } from '../db/field-values';

/**
 * The fields of an update that someone else also changed on the server since the edit was made.
 * - Nothing changed on the server (`updated` as the edit's base): no conflict.
 * - A field conflicts when the server's value differs from the value the edit was based on AND
 *   from the edit's own value (if the server already holds our value, e.g. our earlier send went
 *   through and only its answer was lost, sending it again changes nothing).
 * Fields the edit does not touch never conflict: the PUT sends only the changed fields.
 */
export function conflictingFields(entry: OutboxEntry, server: Record<string, unknown>): string[] {
  if (entry.baseUpdated !== null && server.updated === entry.baseUpdated) return [];
  const base = entry.baseValues ?? {};
  return Object.keys(entry.payload).filter((field) => {
    const theirs = server[field];
    if (sameValue(theirs, entry.payload[field])) return false;
    return !sameValue(theirs, base[field]);
  });
}
