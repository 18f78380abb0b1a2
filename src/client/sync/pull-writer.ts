import type { Entity } from '../../shared';
import type { TraplineDb } from '../db/database';
import { storePulledRows, type PulledRow, type StoredRows } from './store-pulled-rows';

/** A batch to store, sent to the pull writer worker. */
export type PullWriterRequest = {
  id: number;
  dbName: string;
  entity: Entity;
  rows: PulledRow[];
  now: number;
};

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

  store(
    dbName: string,
    entity: Entity,
    rows: PulledRow[],
    now: number,
  ): Promise<StoredRows | null> {
    if (this.broken) return Promise.resolve(null);
    const id = this.nextId++;
    return new Promise<StoredRows | null>((resolve, reject) => {
      this.waiting.set(id, (answer) => {
        if (answer === null) resolve(null);
        else if ('result' in answer) resolve(answer.result);
        else reject(Object.assign(new Error(answer.error.message), { name: answer.error.name }));
      });
      this.worker.postMessage({ id, dbName, entity, rows, now } satisfies PullWriterRequest);
    });
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
): Promise<StoredRows> {
  if (rows.length > 0 && typeof Worker !== 'undefined') {
    writer ??= new PullWriter();
    const stored = await writer.store(db.name, entity, rows, now);
    if (stored) return stored;
  }
  return storePulledRows(db, now, entity, rows);
}
