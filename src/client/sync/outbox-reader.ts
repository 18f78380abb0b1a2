import type { OutboxEntry } from '../../shared';
import type { TraplineDb } from '../db/database';
import { older } from './outbox-graph';

/**
 * How long a writer may take between stamping an entry's createdAt (Date.now(), inside its
 * transaction) and committing it. A read of "what is new" starts this far before the previous
 * read began, so an entry stamped before that read but committed after it is still found.
 */
const WRITE_WINDOW_MS = 5_000;

/**
 * Entries per IndexedDB request when the whole outbox is read: the page deserialises each
 * request's rows in one task, and a week's queue (thousands of entries) in one request would
 * freeze the screen for that long. Pages of a few hundred keep each task short.
 */
export const OUTBOX_PAGE = 500;

/**
 * The whole outbox, oldest first, read in pages by primary key inside one read transaction (so
 * the pages are one consistent snapshot, as a single read would be).
 */
export async function readWholeOutbox(db: TraplineDb): Promise<OutboxEntry[]> {
  const entries = await db.transaction('r', db.outbox, async () => {
    const out: OutboxEntry[] = [];
    let page = await db.outbox.orderBy(':id').limit(OUTBOX_PAGE).toArray();
    out.push(...page);
    while (page.length === OUTBOX_PAGE) {
      const last = page[page.length - 1].id;
      page = await db.outbox.where(':id').above(last).limit(OUTBOX_PAGE).toArray();
      out.push(...page);
    }
    return out;
  });
  return entries.sort(older);
}

export type OutboxReader = {
  /** The whole outbox, oldest first. */
  all(): Promise<OutboxEntry[]>;
  /**
   * Entries saved since the previous read (and some it already returned: callers dedupe by id),
   * by one ranged read of the createdAt index instead of the whole table.
   */
  added(): Promise<OutboxEntry[]>;
  /** The ids `added()` would return now, without reading the entries or moving its mark. */
  addedIds(): Promise<string[]>;
};

export function createOutboxReader(db: TraplineDb): OutboxReader {
  let newest = -Infinity;
  let lastReadAt = -Infinity;
  const read = async (from: number | null) => {
    const startedAt = Date.now();
    const entries =
      from === null
        ? await readWholeOutbox(db)
        : await db.outbox.where('createdAt').aboveOrEqual(from).toArray();
    for (const e of entries) if (e.createdAt > newest) newest = e.createdAt;
    lastReadAt = startedAt;
    return entries;
  };
  // From the newest createdAt seen too: a writer whose clock is not Date.now() (tests) or ran
  // behind still has its entries found, as long as it stamps them in increasing order.
  const addedFrom = () =>
    newest === -Infinity && lastReadAt === -Infinity
      ? null
      : Math.min(newest, lastReadAt - WRITE_WINDOW_MS);
  return {
    all: () => read(null),
    added: () => read(addedFrom()),
    addedIds: async () => {
      const from = addedFrom();
      const ids =
        from === null
          ? await db.outbox.toCollection().primaryKeys()
          : await db.outbox.where('createdAt').aboveOrEqual(from).primaryKeys();
      return ids as string[];
    },
  };
}
