import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { growSites } from '../bench/grow-sites';
import { ensureAppBuilt } from './harness/build-app';
import type { AppBrowser } from './harness/browser';
import { launchSignedIn, navigate, syncNow, visible } from './harness/field-actions';
import { startStack, type Stack } from './harness/stack';

const GROWN = 400;
const USER_DB = 'trapline-a1-demo-tech';

/** How many sites the site index keeps in its snapshot (site-index-snapshot.ts), or null. */
function keptSnapshot(page: Page): Promise<number | null> {
  return page.evaluate(
    (name) =>
      new Promise<number | null>((resolve) => {
        const open = indexedDB.open(name);
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
    `${USER_DB}-site-index`,
  );
}

/** The name of the site with `code` as stored on the tablet, read from IndexedDB. */
function storedName(page: Page, code: string): Promise<string | null> {
  return page.evaluate(
    ({ name, code }) =>
      new Promise<string | null>((resolve) => {
        const open = indexedDB.open(name);
        open.onsuccess = () => {
          const db = open.result;
          const all = db.transaction('sites').objectStore('sites').getAll();
          all.onsuccess = () => {
            db.close();
            const rows = all.result as { code: string; name: string }[];
            resolve(rows.find((r) => r.code === code)?.name ?? null);
          };
        };
      }),
    { name: USER_DB, code },
  );
}

// After sign-in's pull the site index reads and clusters the sites in its worker while the
// technician is still on Home, so Sites opens on them; changes pulled before Sites is shown are
// read when it is.
describe('the site index after the first pull', () => {
  let stack: Stack;
  let app: AppBrowser;
  let total: number;

  beforeAll(async () => {
    await ensureAppBuilt();
    stack = await startStack();
    await growSites(stack.db, GROWN);
    const { rows } = await stack.db.query<{ n: number }>(
      `select count(*)::int as n from site where agency = 1 and delete_date is null`,
    );
    total = rows[0].n;
    app = await launchSignedIn(stack);
  });

  afterAll(async () => {
    await app?.dispose();
    await stack?.stop();
  });

  it('reads every site on Home after the pull, before Sites is opened', async () => {
    const page = app.page;
    await visible(page.getByRole('heading', { name: /^Hello,/ }));
    // The index's worker read every pulled site and kept what Sites will show: no screen that
    // shows sites has been opened in this page.
    await expect.poll(() => keptSnapshot(page), { timeout: 30_000 }).toBe(total);
    expect(page.url()).not.toContain('/sites');
    expect(app.pageErrors).toEqual([]);
  });

  it('shows on Sites a change pulled on Home after that read, among look-alike sites', async () => {
    const page = app.page;
    // Site 100012 takes the name of site 100013: two sites now answer to "Scale site 13".
    await stack.db.query(
      `update site set name = 'Scale site 13', updated = now() where agency = 1 and code = '100012'`,
    );
    await syncNow(page);
    await expect.poll(() => storedName(page, '100012'), { timeout: 30_000 }).toBe('Scale site 13');
    await navigate(page, 'Sites');
    await visible(page.getByText(`${total.toLocaleString('en-US')} sites`, { exact: true }));
    await page.getByLabel('Search sites').fill('Scale site 13');
    const list = page.getByRole('list', { name: 'Sites' });
    await visible(list.getByRole('link', { name: /^100012 Scale site 13\b/ }), 30_000);
    await visible(list.getByRole('link', { name: /^100013 Scale site 13\b/ }));
    // The old name is gone from the list; its neighbours' names are as they were.
    await page.getByLabel('Search sites').fill('Scale site 12');
    await visible(list.getByRole('link', { name: /^100120 Scale site 120\b/ }));
    expect(await list.getByRole('link', { name: /^100012 / }).count()).toBe(0);
    expect(app.pageErrors).toEqual([]);
  });
});
