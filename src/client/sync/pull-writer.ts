import type { Entity } from '../../shared';
import type { TraplineDb } from '../db/database';
import { nextTask } from '../lib/next-task';
import { storePulledRows, type PulledRow, type StoredRows } from './store-pulled-rows';

/**
 * Messages to the pull writer worker: a batch's rows in slices, then the order to store them.
 * A batch of 8,000 rows posted at once was cloned in one task of 1.7 s on the page's thread.
 */
export type PullWriterRequest =
  | { type: 'rows'; id: number; rows: PulledRow[] }
  | {
      type: 'store';
      id: number;
      dbName: string;
      entity: Entity;
      now: number;
      notBefore: string | null;
    };

/** Rows per message to the worker: each message is cloned in one task of the page's thread. */
const ROWS_PER_MESSAGE = 250;

/** The worker's answer: what was stored, or why the batch could not be. */
export type PullWriterAnswer =
  { id: number; result: StoredRows } | { id: number; error: { name: string; message: string } };

/**
 * The page's side of the pull writer worker, made on first use and kept for the page's life.
 * `null` from `store()` means the worker is unusable (it failed to load): the caller stores the
 * batch itself. A batch's transaction either committed whole or not at all, so storing it again
 * after a failed worker is safe (an upsert by server id).
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

  async store(
    dbName: string,
    entity: Entity,
    rows: PulledRow[],
    now: number,
    notBefore: string | null,
  ): Promise<StoredRows | null> {
    if (this.broken) return null;
    const id = this.nextId++;
    const answered = new Promise<StoredRows | null>((resolve, reject) => {
      this.waiting.set(id, (answer) => {
        if (answer === null) resolve(null);
        else if ('result' in answer) resolve(answer.result);
        else reject(Object.assign(new Error(answer.error.message), { name: answer.error.name }));
      });
    });
    for (let i = 0; i < rows.length; i += ROWS_PER_MESSAGE) {
      if (i > 0) await nextTask();
      if (this.broken) return null;
      const slice = rows.slice(i, i + ROWS_PER_MESSAGE);
      this.worker.postMessage({ type: 'rows', id, rows: slice } satisfies PullWriterRequest);
    }
    this.worker.postMessage({
      type: 'store',
      id,
      dbName,
      entity,
      now,
      notBefore,
    } satisfies PullWriterRequest);
    return answered;
  }
}

let writer: PullWriter | null = null;

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
  if (rows.length > 0 && typeof Worker !== 'undefined') {
    writer ??= new PullWriter();
    const stored = await writer.store(db.name, entity, rows, now, notBefore);
    if (stored) return stored;
  }
  return storePulledRows(db, now, entity, rows, notBefore);
}
