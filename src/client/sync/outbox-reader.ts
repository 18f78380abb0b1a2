import type { OutboxEntry } from '../../shared';
import type { TraplineDb } from '../db/database';

/**
 * How long a writer may take between stamping an entry's createdAt (Date.now(), inside its
 * transaction) and committing it. A read of "what is new" starts this far before the previous
 * read began, so an entry stamped before that read but committed after it is still found.
 */
export const WRITE_WINDOW_MS = 5_000;

export type OutboxReader = {
  /** The whole outbox, oldest first. */
  all(): Promise<OutboxEntry[]>;
  /**
   * Entries saved since the previous read (and some it already returned: callers dedupe by id),
   * by one ranged read of the createdAt index instead of the whole table.
   */
  added(): Promise<OutboxEntry[]>;
};

export function createOutboxReader(db: TraplineDb): OutboxReader {
  let newest = -Infinity;
  let lastReadAt = -Infinity;
  const read = async (from: number | null) => {
    const startedAt = Date.now();
    const entries =
      from === null
        ? await db.outbox.orderBy('createdAt').toArray()
        : await db.outbox.where('createdAt').aboveOrEqual(from).toArray();
    for (const e of entries) if (e.createdAt > newest) newest = e.createdAt;
    lastReadAt = startedAt;
    return entries;
  };
  return {
    all: () => read(null),
    // From the newest createdAt seen too: a writer whose clock is not Date.now() (tests) or ran
    // behind still has its entries found, as long as it stamps them in increasing order.
    added: () =>
      newest === -Infinity && lastReadAt === -Infinity
        ? read(null)
        : read(Math.min(newest, lastReadAt - WRITE_WINDOW_MS)),
  };
}
