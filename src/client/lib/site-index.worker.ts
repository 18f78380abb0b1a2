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
 *
 * At its start the index shows what it showed at the last visit (a snapshot kept after each
 * change, site-index-snapshot.ts; after sign-in, the one the first pull left, PulledSites), then
 * reads the sites as stored and says what changed since (at a restart, opened with `read` false,
 * that read waits until the page asks for it, a screen shows the index or a form asks for checks):
 * the read of 20,000 sites took the Sites screen's first opening 3–5 s at 4x CPU, the snapshot a
 * fraction of it. The site form's checks come only from the sites as stored: its questions wait
 * for that read.
 */
import Dexie from 'dexie';
import { checksMessages } from './site-check';
import { SiteIndexCore, type SiteRecordLike } from './site-index-core';
import type { IndexMessage, IndexRequest } from './site-index-protocol';
import { readSnapshot, writeSnapshot } from './site-index-snapshot';
import { writesTo } from './storage-mutations';

const scope = self as unknown as DedicatedWorkerGlobalScope;
const core = new SiteIndexCore();
let db: Dexie | null = null;
/**
 * A screen shows the index (SiteIndex.retain): changes are read as they come. Off until one
 * does: an index started before any screen showed it (warmSiteIndex, after a pull) reads the
 * sites once, then only marks itself stale until a screen shows it.
 */
let watching = false;
/** The sites as stored changed since they were read, or were never read: read them when shown. */
let stale = false;
let reading: Promise<void> | null = null;
let again = false;
let timer: ReturnType<typeof setTimeout> | null = null;
/** The version last said to the page (-1 after a failure: the next read says it again). */
let saidVersion = 0;
/** The site form's questions, waiting for the sites as stored (core.confirmed). */
const heldChecks: { id: number; known: number | null }[] = [];
let snapshotTimer: ReturnType<typeof setTimeout> | null = null;
/** The kept snapshot shown at `open`, or given up on after SNAPSHOT_WAIT_MS: reads wait for it. */
let snapshotShown: Promise<unknown> = Promise.resolve();
/** A pull stores sites in batches: one snapshot once they have stopped changing for this long. */
const SNAPSHOT_AFTER_MS = 2_000;
/**
 * The read of the sites as stored waits at most this long for the snapshot (asked for first so
 * it does not wait behind that read): a snapshot that never comes must not keep the sites unread.
 */
const SNAPSHOT_WAIT_MS = 1_000;

const post = (message: IndexMessage) => scope.postMessage(message);

function sayLoaded(changed: number): void {
  if (core.version === saidVersion) return;
  saidVersion = core.version;
  post({ type: 'loaded', summary: core.summary(), changed });
}

function answerChecks(id: number, known: number | null): void {
  for (const message of checksMessages(id, core.checksSince(known))) post(message);
}

function keepSnapshot(): void {
  const name = db?.name;
  if (!name) return;
  if (snapshotTimer) clearTimeout(snapshotTimer);
  snapshotTimer = setTimeout(() => {
    snapshotTimer = null;
    // A cache: a snapshot not kept only makes the next first opening wait for the read.
    if (db?.name === name) void writeSnapshot(name, core.snapshot()).catch(() => undefined);
  }, SNAPSHOT_AFTER_MS);
}

/** What the last visit showed, until the sites as stored are read. */
async function showSnapshot(name: string): Promise<void> {
  try {
    const snapshot = await readSnapshot(name);
    if (snapshot && db?.name === name && core.loadSnapshot(snapshot))
      sayLoaded(snapshot.ids.length);
  } catch {
    // Unreadable: the read as stored follows.
  }
}

async function readAll(): Promise<void> {
  if (!db) return;
  stale = false;
  // The snapshot first, whichever way the read was asked for: after the read of every site, it
  // would wait behind it.
  await snapshotShown;
  try {
    if (!db.isOpen()) await db.open();
    const rows = (await db.table('sites').toArray()) as SiteRecordLike[];
    const changed = core.load(rows);
    sayLoaded(changed.length);
    for (const q of heldChecks.splice(0)) answerChecks(q.id, q.known);
    if (changed.length > 0) keepSnapshot();
  } catch (e) {
    // The form's questions keep waiting for a read that succeeds: meanwhile the page reads the
    // sites itself (useSiteChecks, on the failure said here).
    saidVersion = -1;
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
    snapshotShown = Promise.race([
      showSnapshot(m.dbName),
      new Promise((resolve) => setTimeout(resolve, SNAPSHOT_WAIT_MS)),
    ]);
    // Opened on the snapshot alone, the read is owed (`stale`) and made when asked for.
    if (m.read) refresh();
    else stale = true;
  } else if (m.type === 'read') {
    if (stale) refresh();
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
    if (core.confirmed) answerChecks(m.id, m.known);
    else {
      heldChecks.push({ id: m.id, known: m.known });
      // Opened on the snapshot alone: the form's checks come only from the sites as stored.
      if (stale) refresh();
    }
  }
};
