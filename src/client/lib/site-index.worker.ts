/// <reference lib="webworker" />
/**
 * The site index's worker: reads the signed-in user's sites from IndexedDB itself, keeps a
 * SiteIndexCore and answers searches, map views and "nearest" questions. Reading 20,000 site
 * records (structured-clone deserialisation) and clustering them are the long tasks the main
 * thread no longer runs.
 *
 * Changes are learnt from Dexie's `storagemutated` event, which Dexie broadcasts to workers from
 * every tab that writes. While nobody shows the index (`watch` off), a change only marks it stale;
 * it is re-read when watched again.
 */
import Dexie from 'dexie';
import { checksMessages } from './site-check';
import { SiteIndexCore, type SiteRecordLike } from './site-index-core';
import type { IndexMessage, IndexRequest } from './site-index-protocol';
import { writesTo } from './storage-mutations';

const scope = self as unknown as DedicatedWorkerGlobalScope;
const core = new SiteIndexCore();
let db: Dexie | null = null;
let watching = true;
let stale = false;
let reading: Promise<void> | null = null;
let again = false;
let timer: ReturnType<typeof setTimeout> | null = null;

const post = (message: IndexMessage) => scope.postMessage(message);

async function readAll(): Promise<void> {
  if (!db) return;
  stale = false;
  try {
    if (!db.isOpen()) await db.open();
    const rows = (await db.table('sites').toArray()) as SiteRecordLike[];
    const changed = core.load(rows);
    if (changed.length > 0 || core.version === 1)
      post({ type: 'loaded', summary: core.summary(), changed: changed.length });
  } catch (e) {
    post({ type: 'failed', message: e instanceof Error ? e.message : String(e) });
  }
}

/** One read at a time; a change during a read reads once more after it. */
function refresh(): void {
  if (reading) {
    again = true;
    return;
  }
  reading = readAll().finally(() => {
    reading = null;
    if (again) {
      again = false;
      refresh();
    }
  });
}

Dexie.on('storagemutated', (parts) => {
  if (!db) return;
  if (!writesTo(parts, db.name, ['sites'])) return;
  if (!watching) {
    stale = true;
    return;
  }
  // A pull stores sites in batches: one re-read for a burst of writes.
  if (timer) clearTimeout(timer);
  timer = setTimeout(() => {
    timer = null;
    refresh();
  }, 300);
});

scope.onmessage = (event: MessageEvent<IndexRequest>) => {
  const m = event.data;
  if (m.type === 'open') {
    // No schema here: the app's TraplineDb owns it; this opens whatever version is stored.
    db = new Dexie(m.dbName);
    refresh();
  } else if (m.type === 'watch') {
    watching = m.on;
    if (watching && stale) refresh();
  } else if (m.type === 'search') {
    post({ type: 'answer', id: m.id, result: core.search(m.query, m.limit) });
  } else if (m.type === 'view') {
    post({ type: 'answer', id: m.id, result: core.view(m.bbox, m.zoom) });
  } else if (m.type === 'nearest') {
    post({ type: 'answer', id: m.id, result: core.nearest(m.here, m.count) });
  } else if (m.type === 'checksSince') {
    for (const message of checksMessages(m.id, core.checksSince(m.known))) post(message);
  }
};
