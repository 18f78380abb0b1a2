/**
 * The first pull's reference (issue 40: "first pull of 20,000 sites ≤ 5 s on loopback"): the
 * least a tablet's browser must do to hold the same sites, measured in the same run, browser and
 * CPU throttle as the app. A page of this bench's own, whose worker fetches the agency's site
 * pages (as the records service lists them, served by this bench at once: no BFF, no database
 * behind them), parses each and puts every row into an IndexedDB store shaped as the app's
 * `sites` table (its key and indexes read from the app's own store definition), as the app
 * stores a pulled row (the row as the form edits it and the server's copy beside it, for
 * conflicts), one transaction a page, the next page fetched and put while the last commits.
 * Nothing else: no sign-in, no lookups, no reads of rows already stored, no outbox, no
 * progress, no page thread involved.
 *
 * So the app's pull over this floor is what the app's own work costs: the sign-in and its
 * chunks before the first page, the checks that keep a technician's unsent edit from being
 * overwritten, the progress shown, and waiting on the records service.
 */
import { createServer, type Server } from 'node:http';
import type { BrowserContext, Page } from 'playwright-core';
import { ENTITY } from '../../src/shared/entities';
import { recordTableStores } from '../../src/client/db/database';
import { DEFAULT_PULL } from '../../src/client/sync/pull-options';
import { launchApp } from '../e2e/harness/browser';
import { recordsApi } from '../e2e/harness/records-api';
import type { Stack } from '../e2e/harness/stack';

/** The app's `sites` store: its primary key path and its indexes (name, unique). */
function sitesStore(): { key: string; indexes: [string, boolean][] } {
  const [key, ...rest] = recordTableStores(ENTITY)
    .sites.split(',')
    .map((part) => part.trim());
  return {
    key,
    indexes: rest.map((index) =>
      index.startsWith('&') ? [index.slice(1), true] : [index.replace(/^\*/, ''), false],
    ),
  };
}

/**
 * The worker's source. A pulled row stored as the app stores it (store-pulled-rows.ts): the
 * row's editable fields (`data`, here the row without the service's own fields) and the row as
 * the server sent it (`server`), with the bookkeeping fields and the indexed copies.
 */
function workerSource(store: { key: string; indexes: [string, boolean][] }): string {
  return `
const STORE = ${JSON.stringify(store)};
const SERVER_ONLY = new Set(['id', 'add_date', 'updated', 'delete_date', 'deactive_date', 'agency', 'user', 'crs']);
onmessage = async (event) => {
  const { pages, dbName } = event.data;
  const db = await new Promise((resolve, reject) => {
    const open = indexedDB.open(dbName, 1);
    open.onupgradeneeded = () => {
      const sites = open.result.createObjectStore('sites', { keyPath: STORE.key });
      for (const [name, unique] of STORE.indexes) sites.createIndex(name, name, { unique });
    };
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
  const started = performance.now();
  const commits = [];
  const page = (n) => fetch('/pages/' + n).then((res) => res.text());
  let next = page(1);
  for (let n = 1; n <= pages; n++) {
    const text = await next;
    if (n < pages) next = page(n + 1);
    const tx = db.transaction('sites', 'readwrite');
    const sites = tx.objectStore('sites');
    const now = Date.now();
    for (const row of JSON.parse(text).rows) {
      const data = {};
      for (const field in row) if (!SERVER_ONLY.has(field)) data[field] = row[field];
      sites.put({
        localId: crypto.randomUUID(), serverId: row.id, syncState: 'synced', data, server: row,
        baseUpdated: row.updated, parentLocalId: null, updatedAt: now, problem: null,
        code: String(row.code ?? ''), name: String(row.name ?? ''),
      });
    }
    commits.push(new Promise((resolve, reject) => {
      tx.oncomplete = resolve;
      tx.onerror = tx.onabort = () => reject(tx.error);
    }));
  }
  await Promise.all(commits);
  const ms = performance.now() - started;
  const count = await new Promise((resolve) => {
    const read = db.transaction('sites').objectStore('sites').count();
    read.onsuccess = () => resolve(read.result);
  });
  postMessage({ ms, count });
};`;
}

/** Serves the floor's page, its worker and the agency's site list pages (fetched once here). */
async function serveFloor(stack: Stack): Promise<{ url: string; server: Server; pages: number }> {
  const api = await recordsApi(stack.recordsUrl, stack.password);
  const bodies: string[] = [];
  for (let page = 1; ; page++) {
    const res = await fetch(
      `${stack.recordsUrl}/v1/site?pageSize=${DEFAULT_PULL.pageSize}&page=${page}&sort=id`,
      { headers: { Authorization: `Bearer ${api.token}`, Accept: 'application/json' } },
    );
    const text = await res.text();
    if (!res.ok) throw new Error(`site list page ${page}: ${res.status} ${text.slice(0, 200)}`);
    const { rows } = JSON.parse(text) as { rows: unknown[] };
    if (rows.length === 0) break;
    bodies.push(text);
    if (rows.length < DEFAULT_PULL.pageSize) break;
  }
  const worker = workerSource(sitesStore());
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const page = /^\/pages\/(\d+)$/.exec(path);
    if (page && bodies[Number(page[1]) - 1] !== undefined) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(bodies[Number(page[1]) - 1]);
    } else if (path === '/floor-worker.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' }).end(worker);
    } else if (path === '/') {
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!doctype html><meta charset="utf-8"><title>Pull floor</title>');
    } else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('pull floor server has no port');
  return { url: `http://127.0.0.1:${address.port}`, server, pages: bodies.length };
}

/**
 * The floor for `expected` sites: ms from the worker's first request to the last page's commit,
 * in a fresh browser throttled as the app's. Fails unless every site was stored.
 */
export async function measurePullFloor(
  stack: Stack,
  expected: number,
  throttle: (context: BrowserContext, page: Page) => Promise<void>,
): Promise<number> {
  const floor = await serveFloor(stack);
  const browser = await launchApp(floor.url);
  try {
    const { page, context } = browser;
    await throttle(context, page);
    const { ms, count } = await page.evaluate(
      (pages) =>
        new Promise<{ ms: number; count: number }>((resolve, reject) => {
          const worker = new Worker('/floor-worker.js');
          worker.onmessage = (event: MessageEvent<{ ms: number; count: number }>) =>
            resolve(event.data);
          worker.onerror = (event) => reject(new Error(event.message));
          worker.postMessage({ pages, dbName: 'pull-floor' });
        }),
      floor.pages,
    );
    if (count !== expected) throw new Error(`the pull floor stored ${count} of ${expected} sites`);
    return ms;
  } finally {
    await browser.dispose();
    await new Promise((resolve) => floor.server.close(resolve));
  }
}
