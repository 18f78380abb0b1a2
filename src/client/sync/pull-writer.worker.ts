/// <reference lib="webworker" />
/**
 * Stores the pull's batches of rows off the main thread. Writing 20,000 pulled sites is mostly
 * IndexedDB's own work on the calling thread (each put serialises the record and deserialises a
 * copy to read its index keys): on the main thread it blocked the page for seconds at a time
 * during a first pull. Here it runs beside the page; live queries in the page still hear of every
 * commit (Dexie broadcasts storage mutations between the page and its workers).
 *
 * The same `storePulledRows` runs here as in the page (where there is no Worker, e.g. in tests),
 * with the app's own database class, so the invariants (one transaction per batch, a record with
 * a local change never overwritten) are the same code.
 */
import { TraplineDb } from '../db/database';
import type { PullWriterAnswer, PullWriterRequest } from './pull-writer';
import { storePulledRows, type PulledRow } from './store-pulled-rows';

const scope = self as unknown as DedicatedWorkerGlobalScope;
let db: TraplineDb | null = null;
/** Rows of batches received in slices, by batch id, until the order to store them. */
const received = new Map<number, PulledRow[]>();

scope.onmessage = (event: MessageEvent<PullWriterRequest>) => {
  const m = event.data;
  if (m.type === 'rows') {
    const rows = received.get(m.id) ?? [];
    for (const row of m.rows) rows.push(row);
    received.set(m.id, rows);
    return;
  }
  const { id, dbName, entity, now, notBefore } = m;
  const rows = received.get(id) ?? [];
  received.delete(id);
  if (db?.name !== dbName) {
    db?.close();
    db = new TraplineDb(dbName);
  }
  storePulledRows(db, now, entity, rows, notBefore ?? null).then(
    (result) => scope.postMessage({ id, result } satisfies PullWriterAnswer),
    (e: unknown) =>
      scope.postMessage({
        id,
        error: {
          name: e instanceof Error ? e.name : 'Error',
          message: e instanceof Error ? e.message : String(e),
        },
      } satisfies PullWriterAnswer),
  );
};
