import type { Entity } from '#shared';
import type { TraplineDb } from '../db/database';
import { nextTask } from '../lib/next-task';
import { readPageHere, type PageReader } from './list-pages';
import { storePulledRows, type PulledRow, type StoredRows } from './store-pulled-rows';

/**
 * A row the pull writer worker holds, as the page sees it: what a pull's walk reads of a row (its
 * id, and `updated` for the pull's mark), and where the worker keeps the whole row (its page, and
 * its place in that page).
 */
export type HeldRow = { id: unknown; updated: unknown; page: number; at: number };

/**
 * Messages to the pull writer worker: a list page's body to read and hold; a batch's rows in
 * slices; then the order to store a batch (the rows sent in slices, and held rows by where they
 * are); or held pages to forget (their pull failed).
 * A batch of 8,000 rows posted at once was cloned in one task of 1.7 s on the page's thread.
 */
export type PullWriterRequest =
  | { type: 'page'; id: number; text: string }
  | { type: 'rows'; id: number; rows: PulledRow[] }
  | {
      type: 'store';
      id: number;
      dbName: string;
      entity: Entity;
      now: number;
      notBefore: string | null;
      /**
       * Held rows of the batch (see HeldRow), the i-th at place `at[i]` of page `pages[i]`: two
       * arrays of numbers, not a pair a row (16,000 small arrays are slow to clone). Their pages
       * are forgotten then.
       */
      held: { pages: number[]; at: number[] };
    }
  | { type: 'forget'; pages: number[] }
  /** The pull of `dbName`'s sites is over (see PulledSites): no answer. */
  | { type: 'keepSites'; dbName: string };

/** Rows per message to the worker: each message is cloned in one task of the page's thread. */
const ROWS_PER_MESSAGE = 250;

/**
 * A page the worker read and holds: each row's id and `updated`, by place in the page, and the
 * list's count. Two arrays of plain values, not an object a row: the page's thread deserialises
 * them in a fraction of the time (1,000 small objects took ~30 ms on this machine).
 */
export type ReadPage = { ids: unknown[]; updated: unknown[]; count: number | null };

/** The worker's answer: a page read, what was stored, or why it could not be. */
export type PullWriterAnswer =
  | { id: number; page: ReadPage }
  | { id: number; result: StoredRows }
  | { id: number; error: { name: string; message: string } };

type Answered = { page: ReadPage } | { result: StoredRows };

/** The worker stopped (it failed to load, or died) while it held or read rows of a pull. */
class PullWriterStopped extends Error {
  constructor() {
    super('The pull writer stopped: the pull will be tried again');
    this.name = 'PullWriterStopped';
  }
}

/**
 * The page's side of the pull writer worker, made on first use and kept for the page's life.
 * `null` from `store()` means the worker is unusable (it failed to load): the caller stores the
 * batch itself. A batch's transaction either committed whole or not at all, so storing it again
 * after a failed worker is safe (an upsert by server id). Held rows cannot be stored elsewhere:
 * with the worker gone, `readPage` and `storeHeld` throw and the pull is tried again later.
 */
class PullWriter {
  private readonly worker: Worker;
  private readonly waiting = new Map<number, (answer: PullWriterAnswer | null) => void>();
  private nextId = 1;
  broken = false;

  constructor() {
    // Vite bundles the worker as its own chunk; the service worker precaches it with the app.
    this.worker = new Worker(new URL('./pull-writer.worker.ts', import.meta.url), {
      type: 'module',
      name: 'pull-writer',
    });
    this.worker.onmessage = (event: MessageEvent<PullWriterAnswer>) => {
      this.waiting.get(event.data.id)?.(event.data);
      this.waiting.delete(event.data.id);
    };
    this.worker.onerror = () => {
      this.broken = true;
      for (const resolve of this.waiting.values()) resolve(null);
      this.waiting.clear();
      this.worker.terminate();
    };
  }

  /** The worker's answer to the message posted under `id`; null if the worker stopped. */
  private answer(id: number): Promise<Answered | null> {
    return new Promise((resolve, reject) => {
      this.waiting.set(id, (answer) => {
        if (answer === null) resolve(null);
        else if ('error' in answer)
          reject(Object.assign(new Error(answer.error.message), { name: answer.error.name }));
        else resolve(answer);
      });
    });
  }

  /** Hands a page's body to the worker, which reads and holds its rows (see HeldRow). */
  async readPage(text: string): Promise<{ rows: HeldRow[]; count: number | null }> {
    if (this.broken) throw new PullWriterStopped();
    const id = this.nextId++;
    const answered = this.answer(id);
    this.worker.postMessage({ type: 'page', id, text } satisfies PullWriterRequest);
    const answer = await answered;
    if (!answer || !('page' in answer)) throw new PullWriterStopped();
    const { ids, updated, count } = answer.page;
    return {
      rows: ids.map((rowId, at) => ({ id: rowId, updated: updated[at], page: id, at })),
      count,
    };
  }

  /** Stores a batch of held rows where the worker holds them. */
  async storeHeld(
    dbName: string,
    entity: Entity,
    rows: HeldRow[],
    now: number,
    notBefore: string | null,
  ): Promise<StoredRows> {
    const stored = await this.send([], {
      dbName,
      entity,
      now,
      notBefore,
      held: { pages: rows.map((r) => r.page), at: rows.map((r) => r.at) },
    });
    if (!stored) throw new PullWriterStopped();
    return stored;
  }

  /** Forgets held pages that will not be stored (their pull failed, or no row was new). */
  forget(pages: number[]) {
    if (this.broken || pages.length === 0) return;
    this.worker.postMessage({ type: 'forget', pages } satisfies PullWriterRequest);
  }

  /** The site pull is over: the sites it stored may become the site index's snapshot. */
  keepSites(dbName: string) {
    if (this.broken) return;
    this.worker.postMessage({ type: 'keepSites', dbName } satisfies PullWriterRequest);
  }

  /** Stores a batch of rows read on the page, sent over in slices; null if the worker stopped. */
  store(
    dbName: string,
    entity: Entity,
    rows: PulledRow[],
    now: number,
    notBefore: string | null,
  ): Promise<StoredRows | null> {
    return this.send(rows, { dbName, entity, now, notBefore, held: { pages: [], at: [] } });
  }

  private async send(
    rows: PulledRow[],
    order: Omit<Extract<PullWriterRequest, { type: 'store' }>, 'type' | 'id'>,
  ): Promise<StoredRows | null> {
    if (this.broken) return null;
    const id = this.nextId++;
    const answered = this.answer(id);
    for (let i = 0; i < rows.length; i += ROWS_PER_MESSAGE) {
      if (i > 0) await nextTask();
      if (this.broken) return null;
      const slice = rows.slice(i, i + ROWS_PER_MESSAGE);
      this.worker.postMessage({ type: 'rows', id, rows: slice } satisfies PullWriterRequest);
    }
    this.worker.postMessage({ type: 'store', id, ...order } satisfies PullWriterRequest);
    const answer = await answered;
    return answer && 'result' in answer ? answer.result : null;
  }
}

let writer: PullWriter | null = null;

/** The pull writer worker, where the platform has workers and it has not failed. */
function usableWriter(): PullWriter | null {
  if (typeof Worker === 'undefined') return null;
  writer ??= new PullWriter();
  return writer.broken ? null : writer;
}

/**
 * Stores a batch of pulled rows (see `storePulledRows`): in the pull writer worker where the
 * platform has workers, else (or if the worker cannot start) on this thread.
 */
export async function storePulled(
  db: TraplineDb,
  now: number,
  entity: Entity,
  rows: PulledRow[],
  notBefore: string | null = null,
): Promise<StoredRows> {
  if (rows.length > 0) {
    const stored = await usableWriter()?.store(db.name, entity, rows, now, notBefore);
    if (stored) return stored;
  }
  return storePulledRows(db, now, entity, rows, notBefore);
}

/**
 * The pull of `db`'s sites is over: where the pull writer worker stored them, they become the
 * site index's snapshot when they are every site on the tablet and none is kept yet
 * (PulledSites), so that Sites first opens on them without reading them back.
 */
export function keepPulledSites(db: TraplineDb): void {
  writer?.keepSites(db.name);
}

/** What a pull reads of a list's row: its id, and `updated` for the pull's mark. */
export type ListedRow = { id?: unknown; updated?: unknown };

/**
 * How a pull reads a list's pages and stores the rows it walked. `store` takes only rows this
 * object's `readPage` returned.
 */
export type ListRows = {
  readPage: PageReader<ListedRow>;
  store(rows: ListedRow[], now: number, notBefore: string | null): Promise<StoredRows>;
  /** The pull is over (done or failed): rows read and not stored are let go. */
  close(): void;
};

/**
 * A long list's pages for a pull of `entity`. Where the pull writer worker runs, each page's body
 * goes to it as text: the worker parses it and holds the rows, the page gets back only each row's
 * id and `updated` (HeldRow), and a batch is stored where its rows are. The page's thread then
 * neither parses the rows nor clones them for the worker: at 20,000 sites, parsing a page of
 * 1,000 (578 KB) and handing its rows over were the longest tasks left while a sync ran under an
 * open form. Elsewhere, pages are parsed and stored here.
 */
export function listRowsFor(db: TraplineDb, entity: Entity): ListRows {
  const onThisThread: ListRows = {
    readPage: readPageHere,
    // The rows readPage returned: whole rows as the server sent them.
    store: (rows, now, notBefore) =>
      storePulledRows(db, now, entity, rows as PulledRow[], notBefore),
    close: () => undefined,
  };
  const worker = usableWriter();
  if (!worker) return onThisThread;
  // Pages the worker holds for this pull and no batch has stored yet.
  const held = new Set<number>();
  // Set once the worker stopped while it held nothing of this pull still to store (it could not
  // start, most likely): the rest of the pull is read and stored here, as where there is no worker.
  let here = false;
  return {
    async readPage(text) {
      if (!here) {
        try {
          const page = await worker.readPage(text);
          if (page.rows.length > 0) held.add(page.rows[0].page);
          return page;
        } catch (err) {
          // Rows the stopped worker held are gone with it: that pull fails, to be tried again.
          if (!(err instanceof PullWriterStopped) || held.size > 0) throw err;
          here = true;
        }
      }
      return onThisThread.readPage(text);
    },
    store(rows, now, notBefore) {
      if (here) return onThisThread.store(rows, now, notBefore);
      // The rows readPage returned: what the worker holds.
      const heldRows = rows as HeldRow[];
      for (const row of heldRows) held.delete(row.page);
      return worker.storeHeld(db.name, entity, heldRows, now, notBefore);
    },
    close() {
      worker.forget([...held]);
      held.clear();
    },
  };
}
