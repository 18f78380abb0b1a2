import type { LocalRecord } from './database';

/**
 * When a record was made: on this tablet (`createdAt`), else on the server (`add_date`), else its
 * last local change (records saved before `createdAt` existed).
 */
function madeAt(row: LocalRecord<unknown, unknown>): number {
  if (typeof row.createdAt === 'number') return row.createdAt;
  const added = (row.server as { add_date?: unknown } | null)?.add_date;
  const time = typeof added === 'string' ? Date.parse(added) : NaN;
  return Number.isNaN(time) ? row.updatedAt : time;
}

/**
 * Oldest made first, for lists of look-alike records (equal pools, same-day re-tests) that are
 * told apart only by their place: an edit, a send or a pull never moves one.
 */
export function byCreation(
  a: LocalRecord<unknown, unknown>,
  b: LocalRecord<unknown, unknown>,
): number {
  return madeAt(a) - madeAt(b) || (a.localId < b.localId ? -1 : a.localId > b.localId ? 1 : 0);
}
