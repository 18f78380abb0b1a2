/**
 * Where an entity's incremental pull starts again, kept in the `meta` table after each pull.
 *
 * A record's `updated` is stamped when its write begins, and the write becomes visible when it
 * commits: a write that waited on a lock (PostgreSQL), or one stamped by another records-service
 * process's clock, shows up after writes stamped later, which a pull may already have read. A
 * pull asking only for `updated` after the newest row it saw would never see that write, and the
 * technician would work on the old record for good. So the next pull starts at the newest
 * `updated` seen, but no later than `settledBefore`: the server's time when the list was read,
 * less COMMIT_WAIT_MS, before which every stamped write had committed and been listed. Rows asked
 * for again are stored again as any pulled row is (an unchanged row changes nothing); they are
 * only those written in the COMMIT_WAIT_MS before a pull, so a pull long after the last change
 * costs what it did before.
 */
export type PullMark = {
  /** The newest `updated` the pulls have seen, as the server wrote it. */
  maxUpdated: string | null;
  /** The tablet's time of the pull (ms). */
  pulledAt: number;
  /**
   * Server time (ms) before which every write was visible to this pull; absent in marks kept by
   * earlier versions and when the server sent no `Date`, which then count as settled only
   * COMMIT_WAIT_MS before `maxUpdated`.
   */
  settledBefore?: number | null;
};

/** Longer than any write waits between its stamp and its commit (locks, a busy connection pool). */
export const COMMIT_WAIT_MS = 10 * 60_000;

/**
 * The server time (ms) of a list answer, from its `Date` header (whole seconds, rounded down:
 * no later than the answer), less COMMIT_WAIT_MS; null when absent or unreadable.
 */
export function settledBeforeOf(dateHeader: string | null): number | null {
  const at = dateHeader === null ? Number.NaN : Date.parse(dateHeader);
  return Number.isNaN(at) ? null : at - COMMIT_WAIT_MS;
}

/** The `query[updated][$gt]` bound of the next pull after `mark`, or null for a whole pull. */
export function changedSince(mark: PullMark | undefined): string | null {
  if (!mark?.maxUpdated) return null;
  const newest = Date.parse(mark.maxUpdated);
  // Not a date this client can read: its own string, as before (no worse than without a mark).
  if (Number.isNaN(newest)) return mark.maxUpdated;
  const settled = mark.settledBefore ?? newest - COMMIT_WAIT_MS;
  return newest <= settled ? mark.maxUpdated : new Date(settled).toISOString();
}

/** The earlier of two settled times, null counting as unknown (so the other one wins). */
export function earlierSettled(a: number | null, b: number | null): number | null {
  if (a === null) return b;
  if (b === null) return a;
  return Math.min(a, b);
}
