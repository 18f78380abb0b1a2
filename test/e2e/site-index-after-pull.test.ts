import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAppBuilt } from './harness/build-app';
import { growAndCount } from './harness/grown-sites';
import { launchApp, type AppBrowser } from './harness/browser';
import { launchSignedIn, navigate, signIn, syncNow, visible } from './harness/field-actions';
import { keptSiteSnapshot, localRows, userDbName } from './harness/local-db';
import { healSiteIndexWorker, loseSiteIndexWorker } from './harness/site-index-worker';
import { startStack, type Stack } from './harness/stack';

const GROWN = 400;
const USER_DB = userDbName(1, 'demo-tech');
const keptSnapshot = (page: Page) => keptSiteSnapshot(page, USER_DB);
/** The name of the site with `code` as stored on the tablet. */
const storedName = async (page: Page, code: string) =>
  (await localRows(page, USER_DB, 'sites')).find((r) => r.code === code)?.name;

/** On Home, with no screen that shows sites opened yet: the site index's worker runs. */
async function indexRunsOnHome(page: Page): Promise<void> {
  await visible(page.getByRole('heading', { name: /^Hello,/ }));
  await expect
    .poll(() => page.workers().some((w) => w.url().includes('site-index')), { timeout: 30_000 })
    .toBe(true);
  expect(page.url()).not.toContain('/sites');
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
    total = await growAndCount(stack.db, GROWN);
    app = await launchSignedIn(stack);
  });

  afterAll(async () => {
    await app?.dispose();
    await stack?.stop();
  });

  it('starts the index on Home after the pull, before Sites is opened', async () => {
    const page = app.page;
    // The index's worker runs, though no screen that shows sites has been opened in this page;
    // and what Sites will show is kept (by the pull, or by the index once it read the sites).
    await indexRunsOnHome(page);
    await expect.poll(() => keptSnapshot(page), { timeout: 30_000 }).toBe(total);
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

  it('at a restart with no connection, starts the index on Home from the sites it kept', async () => {
    await expect.poll(() => keptSnapshot(app.page), { timeout: 30_000 }).toBe(total);
    // The next morning in the truck: the app starts with no signal, so no pull gets through.
    await app.close();
    await app.reopen('/', { offline: true });
    const page = app.page;
    // The index's worker runs on Home, on what the tablet kept, before Sites is opened.
    await indexRunsOnHome(page);
    await navigate(page, 'Sites');
    await visible(page.getByText(`${total.toLocaleString('en-US')} sites`, { exact: true }));
    // The site form's checks come from the sites as stored, read once Sites showed the index.
    await page.getByRole('link', { name: 'New site' }).first().click();
    const code = page.getByLabel('Site code');
    await expect.poll(() => code.inputValue(), { timeout: 30_000 }).not.toBe('');
    await code.fill('100013');
    await page.getByRole('button', { name: 'Save site' }).click();
    await visible(page.getByText(/Site code 100013 is already used by 'Scale site 13'/));
    expect(app.pageErrors).toEqual([]);
  });

  it('keeps what sign-in pulled for the index even where the index has not run', async () => {
    // A second tablet whose browser cannot load the index's worker until told to: the only one
    // left to keep the snapshot is the pull writer, from the sites it stored.
    const other = await launchApp(stack.appUrl);
    try {
      await loseSiteIndexWorker(other.context);
      await other.page.reload();
      await signIn(other.page, { username: 'demo-tech', password: stack.password });
      await expect.poll(() => keptSnapshot(other.page), { timeout: 30_000 }).toBe(total);
      // With the worker at hand again, Sites opens on every site.
      await healSiteIndexWorker(other.page);
      await navigate(other.page, 'Sites');
      await visible(
        other.page.getByText(`${total.toLocaleString('en-US')} sites`, { exact: true }),
        30_000,
      );
      expect(other.pageErrors).toEqual([]);
    } finally {
      await other.dispose();
    }
  });
});
