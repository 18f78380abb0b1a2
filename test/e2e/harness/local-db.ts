import type { Page } from 'playwright-core';
import { databaseName } from '../../../src/client/db/database';
import { snapshotDbName } from '../../../src/client/lib/site-index-snapshot';

/**
 * Reads the tablet's own IndexedDB (the per-user Dexie database) with the raw IndexedDB API,
 * without going through the app: what a test sees here is what is stored on the device.
 */
export async function localRows(
  page: Page,
  dbName: string,
  store: string,
): Promise<Record<string, unknown>[]> {
  return page.evaluate(
    ([name, storeName]) =>
      new Promise<Record<string, unknown>[]>((resolve, reject) => {
        const open = indexedDB.open(name);
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains(storeName)) {
            db.close();
            resolve([]);
            return;
          }
          const req = db.transaction(storeName, 'readonly').objectStore(storeName).getAll();
          req.onsuccess = () => {
            db.close();
            resolve(req.result as Record<string, unknown>[]);
          };
          req.onerror = () => reject(req.error);
        };
      }),
    [dbName, store] as const,
  );
}

/**
 * How many sites the site index's snapshot of `dbName` holds (site-index-snapshot.ts), or null
 * when none is kept. Looking makes no database: an empty one would stand in the app's way.
 */
export function keptSiteSnapshot(page: Page, dbName: string): Promise<number | null> {
  return page.evaluate(
    (name) =>
      new Promise<number | null>((resolve) => {
        const open = indexedDB.open(name);
        open.onupgradeneeded = () => open.transaction?.abort();
        open.onerror = () => resolve(null);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('snapshot')) return resolve(db.close() ?? null);
          const get = db.transaction('snapshot').objectStore('snapshot').get('sites');
          get.onsuccess = () => {
            db.close();
            resolve((get.result as { ids: string[] } | undefined)?.ids.length ?? null);
          };
        };
      }),
    snapshotDbName(dbName),
  );
}

/** Name of a user's Dexie database on the tablet (the app's own naming function). */
export function userDbName(agencyId: number, username: string): string {
  return databaseName({ agencyId, username });
}

/** Polls `read` until `accept` says yes, or fails with the last value after `timeoutMs`. */
export async function eventually<T>(
  read: () => Promise<T>,
  accept: (value: T) => boolean,
  { timeoutMs = 30_000, intervalMs = 250, what = 'condition' } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T = await read();
  while (!accept(last)) {
    if (Date.now() > deadline)
      throw new Error(
        `timed out waiting for ${what}; last value: ${JSON.stringify(last)?.slice(0, 2000)}`,
      );
    await new Promise((r) => setTimeout(r, intervalMs));
    last = await read();
  }
  return last;
}
