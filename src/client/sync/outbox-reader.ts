import type { OutboxEntry } from '#shared';
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
  /**
   * The ids of entries saved since the last read (`all()` or `added()`) that `known` does not hold,
   * without reading the entries or moving that read's mark. Each call reads only the ids saved
   * since the previous call (less the write window) and keeps what it found: a count every
   * 100 ms while a queue saved a moment ago drains would otherwise read every id of that queue
   * each time (measured: 875,000 ids over a 6,000-entry drain). An id found once stays counted
   * until `known` holds it, or the next read. With `look` false, nothing is read: the ids found
   * so far that `known` still does not hold.
   */
  addedIds(known: (id: string) => boolean, look?: boolean): Promise<string[]>;
};

export function createOutboxReader(db: TraplineDb): OutboxReader {
  let newest = -Infinity;
  let lastReadAt = -Infinity;
  // addedIds' own look, from the last read on: the ids it found that the caller did not know,
  // and how far it has looked (the same two marks as the read's, moved by each look).
  let found = new Set<string>();
  let idsNewest = -Infinity;
  let idsReadAt = -Infinity;
  const read = async (from: number | null) => {
    const startedAt = Date.now();
    const entries =
      from === null
        ? await readWholeOutbox(db)
        : await db.outbox.where('createdAt').aboveOrEqual(from).toArray();
    for (const e of entries) if (e.createdAt > newest) newest = e.createdAt;
    lastReadAt = startedAt;
    found = new Set();
    idsNewest = newest;
    idsReadAt = lastReadAt;
    return entries;
  };
  // From the newest createdAt seen too: a writer whose clock is not Date.now() (tests) or ran
  // behind still has its entries found, as long as it stamps them in increasing order.
  const since = (newestSeen: number, readAt: number) =>
    newestSeen === -Infinity && readAt === -Infinity
      ? null
      : Math.min(newestSeen, readAt - WRITE_WINDOW_MS);
  return {
    all: () => read(null),
    added: () => read(since(newest, lastReadAt)),
    addedIds: async (known, look = true) => {
      if (look) {
        const startedAt = Date.now();
        const from = since(idsNewest, idsReadAt) ?? -Infinity;
        // The ids by one key read, and the newest save by one entry: reading the createdAt keys
        // themselves takes a cursor, a step per entry (in fake-indexeddb, seconds for a week's queue).
        const ids = await db.outbox.where('createdAt').aboveOrEqual(from).primaryKeys();
        for (const id of ids) found.add(id as string);
        const last = await db.outbox.orderBy('createdAt').last();
        if (last && last.createdAt > idsNewest) idsNewest = last.createdAt;
        idsReadAt = startedAt;
      }
      for (const id of found) if (known(id)) found.delete(id);
      return [...found];
    },
  };
}
