/// <reference lib="webworker" />
/**
 * Reads a pull's list pages and stores the pull's batches of rows off the main thread. Writing
 * 20,000 pulled sites is mostly IndexedDB's own work on the calling thread (each put serialises
 * the record and deserialises a copy to read its index keys): on the main thread it blocked the
 * page for seconds at a time during a first pull. Parsing the pages' bodies, and cloning their
 * rows from the page to here, were the page's longest tasks after that. Here it runs beside the
 * page; live queries in the page still hear of every commit (Dexie broadcasts storage mutations
 * between the page and its workers).
 *
 * The same `storePulledRows` runs here as in the page (where there is no Worker, e.g. in tests),
 * with the app's own database class, so the invariants (one transaction per batch, a record with
 * a local change never overwritten) are the same code.
 */
import { TraplineDb } from '../db/database';
import { readListBody } from './list-body';
import type { PullWriterAnswer, PullWriterRequest } from './pull-writer';
import { PulledSites } from './pulled-sites';
import { storePulledRows, type PulledRow } from './store-pulled-rows';

const scope = self as unknown as DedicatedWorkerGlobalScope;
let db: TraplineDb | null = null;
/** Rows of batches received in slices, by batch id, until the order to store them. */
const received = new Map<number, PulledRow[]>();
/** Rows of the pages read here, by page id, until a batch stores them or their pull fails. */
const pages = new Map<number, PulledRow[]>();
/** The sites this worker stored for the site index's snapshot, until the site pull ends. */
let pulledSites: PulledSites | null = null;

const failed = (id: number, e: unknown): PullWriterAnswer => ({
  id,
  error: {
    name: e instanceof Error ? e.name : 'Error',
    message: e instanceof Error ? e.message : String(e),
  },
});

scope.onmessage = (event: MessageEvent<PullWriterRequest>) => {
  const m = event.data;
  if (m.type === 'page') {
    const { rows, count } = readListBody(m.text);
    if (rows.length > 0) pages.set(m.id, rows);
    const page = { ids: rows.map((r) => r.id), updated: rows.map((r) => r.updated), count };
    scope.postMessage({ id: m.id, page } satisfies PullWriterAnswer);
    return;
  }
  if (m.type === 'forget') {
    for (const page of m.pages) pages.delete(page);
    return;
  }
  if (m.type === 'keepSites') {
    // The site pull is over: its sites become the index's snapshot if they are every site.
    const pulled = pulledSites;
    pulledSites = null;
    if (pulled && db?.name === m.dbName) void pulled.keep(db).catch(() => false);
    return;
  }
  if (m.type === 'rows') {
    const rows = received.get(m.id) ?? [];
    for (const row of m.rows) rows.push(row);
    received.set(m.id, rows);
    return;
  }
  const { id, dbName, entity, now, notBefore, held } = m;
  const rows = received.get(id) ?? [];
  received.delete(id);
  for (let i = 0; i < held.pages.length; i += 1) {
    const [page, at] = [held.pages[i], held.at[i]];
    const row = pages.get(page)?.[at];
    // A held row is stored by the batch that walked it, once: missing, the pull is wrong.
    if (!row) {
      scope.postMessage(failed(id, new Error(`Row ${at} of page ${page} is not held`)));
      return;
    }
    rows.push(row);
  }
  for (const page of held.pages) pages.delete(page);
  if (db?.name !== dbName) {
    db?.close();
    db = new TraplineDb(dbName);
  }
  if (entity === 'site' && pulledSites?.dbName !== dbName) pulledSites = new PulledSites(dbName);
  const sites = entity === 'site' ? pulledSites : null;
  storePulledRows(db, now, entity, rows, notBefore ?? null, {
    writeOrder: 'overlapped',
    onStored: sites ? (records) => sites.add(records) : undefined,
  }).then(
    (result) => scope.postMessage({ id, result } satisfies PullWriterAnswer),
    (e: unknown) => scope.postMessage(failed(id, e)),
  );
};
