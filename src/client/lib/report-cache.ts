import { dehydrate, hydrate, type DehydratedState, type QueryClient } from '@tanstack/react-query';
import type { Owner } from './identity';

/**
 * The report queries of the TanStack Query cache, kept in IndexedDB so the last reports a user
 * opened show again offline, after a reload or a restart. A small persister of our own: the
 * persist packages stop at a query version older than ours and would bring a second query-core.
 *
 * Invariants:
 * - Only queries whose key starts with REPORT_KEY are stored, and only successful ones.
 * - One entry per owner (agency and user), like the records database: a shared tablet never
 *   shows one user's reports to the next. Sign-out keeps local data, so it keeps these too;
 *   removing a user's data from the tablet removes their entry (forgetStoredReports).
 * - The newest MAX_KEPT reports are kept; older ones fall off.
 * - A restored report keeps its `dataUpdatedAt` (the screen says when it was computed) and is
 *   marked invalid: shown at once, and asked for again when the screen shows it, however recent.
 *   That request's outcome is how the screen knows it is offline (navigator.onLine is no proof).
 * - Beside them, under a key of its own, the report each owner last viewed (the screen's URL
 *   search), so Reports reopens on it, offline too, instead of on the default.
 */
export const REPORT_KEY = 'report';

/** The key a user's reports are kept under: `<agency id>:<username>` as signed in. */
export function reportOwner(owner: Owner): string {
  return `${owner.agencyId}:${owner.username}`;
}
const DB_NAME = 'trapline-report-cache';
const STORE = 'owners';
const MAX_KEPT = 20;
/** Writes are coalesced: a burst of cache events (fetch start, success, observers) is one write. */
const WRITE_DELAY_MS = 250;

type StoredEntry = { savedAt: number; state: DehydratedState };

/**
 * Opens the store, creating it when missing. A database found without it (opened elsewhere
 * with no version, e.g. by developer tools) is upgraded once more to add it.
 */
function openStore(version?: number): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(DB_NAME, version);
    req.onupgradeneeded = () => {
      if (!req.result.objectStoreNames.contains(STORE)) req.result.createObjectStore(STORE);
    };
    req.onsuccess = () => {
      const db = req.result;
      if (db.objectStoreNames.contains(STORE)) return resolve(db);
      const next = db.version + 1;
      db.close();
      openStore(next).then(resolve, reject);
    };
    req.onerror = () => reject(req.error ?? new Error('IndexedDB open failed'));
  });
}

async function inStore<T>(
  mode: IDBTransactionMode,
  act: (store: IDBObjectStore) => IDBRequest<T>,
): Promise<T> {
  const db = await openStore();
  try {
    return await new Promise<T>((resolve, reject) => {
      const tx = db.transaction(STORE, mode);
      const req = act(tx.objectStore(STORE));
      tx.oncomplete = () => resolve(req.result);
      tx.onerror = () => reject(tx.error ?? new Error('IndexedDB transaction failed'));
      tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'));
    });
  } finally {
    db.close();
  }
}

export async function readStoredReports(owner: string): Promise<DehydratedState | null> {
  const entry = await inStore<StoredEntry | undefined>('readonly', (s) => s.get(owner));
  return entry?.state ?? null;
}

/** The owner's last viewed report's key: owners are "<agency id>:<username>" or "nobody". */
const lastViewedKey = (owner: string) => `last-viewed:${owner}`;

/** The screen's URL search of the report `owner` last viewed, or null. */
export async function readLastViewed(owner: string): Promise<string | null> {
  const value = await inStore<unknown>('readonly', (s) => s.get(lastViewedKey(owner)));
  return typeof value === 'string' ? value : null;
}

export async function writeLastViewed(owner: string, search: string): Promise<void> {
  await inStore('readwrite', (s) => s.put(search, lastViewedKey(owner)));
}

/** Deletes `owner`'s kept reports (their data removed from the tablet). */
export async function forgetStoredReports(owner: string): Promise<void> {
  await inStore('readwrite', (s) => s.delete(owner));
  await inStore('readwrite', (s) => s.delete(lastViewedKey(owner)));
}

async function writeStoredReports(owner: string, state: DehydratedState): Promise<void> {
  const entry: StoredEntry = { savedAt: Date.now(), state };
  await inStore('readwrite', (s) => s.put(entry, owner));
}

const isReportKey = (key: readonly unknown[]) => key[0] === REPORT_KEY;

/** The owner's successful report queries, newest first, at most MAX_KEPT. */
function dehydrateReports(client: QueryClient, owner: string): DehydratedState {
  const state = dehydrate(client, {
    shouldDehydrateQuery: (q) =>
      q.state.status === 'success' && isReportKey(q.queryKey) && q.queryKey[1] === owner,
    shouldDehydrateMutation: () => false,
  });
  const queries = [...state.queries]
    .sort((a, b) => b.state.dataUpdatedAt - a.state.dataUpdatedAt)
    .slice(0, MAX_KEPT);
  return { mutations: [], queries };
}

type Running = { owner: string; restored: Promise<void>; stop: () => void };
const running = new WeakMap<QueryClient, Running>();

/**
 * Restores `owner`'s stored reports into `client` and from then on stores them whenever a report
 * query changes. Idempotent per client and owner; a new owner drops the previous owner's report
 * queries from memory first. Resolves once the stored reports are in the cache (or none could
 * be read: a report that cannot be restored is fetched again, never an error).
 */
export function startReportCache(client: QueryClient, owner: string): Promise<void> {
  const current = running.get(client);
  if (current?.owner === owner) return current.restored;
  current?.stop();
  client.removeQueries({ queryKey: [REPORT_KEY] });
  // Kept in memory for the session: a report dropped by garbage collection would be dropped
  // from the store at the next write (the store is rewritten from the cache).
  client.setQueryDefaults([REPORT_KEY], { gcTime: Infinity });

  let timer: ReturnType<typeof setTimeout> | null = null;
  let stopped = false;
  const save = () => {
    timer = null;
    if (stopped) return;
    void writeStoredReports(owner, dehydrateReports(client, owner)).catch(() => undefined);
  };
  const restored = readStoredReports(owner)
    .then((state) => {
      if (!state || stopped) return;
      hydrate(client, state);
      // Not refetched here: only the report the screen shows is asked for, when it shows it.
      void client.invalidateQueries({ queryKey: [REPORT_KEY, owner], refetchType: 'none' });
    })
    .catch(() => undefined);
  // Subscribed only after the restore, so the restore itself never overwrites the store with
  // an empty cache.
  let unsubscribe = () => {};
  void restored.then(() => {
    if (stopped) return;
    unsubscribe = client.getQueryCache().subscribe((event) => {
      if (!isReportKey(event.query.queryKey) || event.type !== 'updated') return;
      if (event.action.type !== 'success') return;
      timer ??= setTimeout(save, WRITE_DELAY_MS);
    });
  });
  const stop = () => {
    // A write still waiting is done now: the last report opened is not lost to a user switch.
    if (timer) {
      clearTimeout(timer);
      save();
    }
    stopped = true;
    unsubscribe();
  };
  running.set(client, { owner, restored, stop });
  return restored;
}
