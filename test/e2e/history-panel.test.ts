import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAppBuilt } from './harness/build-app';
import { launchApp, type AppBrowser } from './harness/browser';
import {
  createCollectionAtSite,
  createSiteByCoordinates,
  launchSignedIn,
  makePools,
  recordPoolTest,
  signIn,
  visible,
} from './harness/field-actions';
import { inspectScreen } from './harness/inspect-screen';
import { startStack, type Stack } from './harness/stack';
import { outboxEmpties } from './harness/sync-checks';

/** The History panel of the open record screen. */
const historyPanel = (page: Page) => page.getByRole('region', { name: 'History' });

// Contract §11 on the screens: "who changed this count from 41 to 14?", answered on the record's
// own screen, and the office's list of every change since a day, in Chromium against the real
// BFF and records service.
describe('the History panel and the changes since', () => {
  let stack: Stack;
  let app: AppBrowser;
  let page: Page;
  let collectionUrl = '';

  beforeAll(async () => {
    await ensureAppBuilt();
    stack = await startStack();
    app = await launchSignedIn(stack);
    page = app.page;
  });

  afterAll(async () => {
    await app?.dispose();
    await stack?.stop();
  });

  it('shows a collection count edited from 41 to 14 in its History panel, in words', async () => {
    await createSiteByCoordinates(page, {
      code: '746411',
      name: 'Yolo Bypass E',
      lat: 38.56,
      lon: -121.6,
    });
    await createCollectionAtSite(page, [{ species: 'Cx tarsalis', sex: 'F-Mixed', count: 41 }]);
    collectionUrl = new URL(page.url()).pathname;
    await outboxEmpties(page);
    const panel = historyPanel(page);
    await visible(panel.getByText('Added Cx tarsalis F-Mixed: 41'), 30_000);
    await visible(panel.getByText(/^Created by/));

    await page.getByRole('link', { name: 'Edit collection' }).click();
    const form = page.getByRole('form', { name: 'Collection' });
    await visible(form);
    await form.getByLabel('Count (row 1)').fill('14');
    await form.getByRole('button', { name: 'Save collection' }).click();
    await visible(page.getByRole('link', { name: 'Make pools' }));
    await outboxEmpties(page);

    // Read again once the edit is acknowledged: the change, who made it and when.
    await visible(panel.getByText('Count of Cx tarsalis F-Mixed 41 → 14'), 30_000);
    const changes = panel.getByRole('list', { name: 'Changes' }).locator('> li');
    await expect.poll(() => changes.count()).toBe(2);
    await expect.poll(() => changes.nth(1).textContent()).toMatch(/^Changed by .+ · /);
    await panel.scrollIntoViewIfNeeded();
    await inspectScreen(page, 'collection-history');
  });

  it('has the panel on the site, pool and pool-test screens too', async () => {
    await makePools(page);
    await recordPoolTest(page, 'Negative', 36.5);
    await outboxEmpties(page);
    await page
      .getByRole('link', { name: /^Edit pool/ })
      .first()
      .click();
    await visible(page.getByRole('heading', { name: 'Edit pool' }));
    await visible(historyPanel(page).getByText(/^Created by/), 30_000);
    await historyPanel(page).scrollIntoViewIfNeeded();
    await inspectScreen(page, 'pool-history');

    await page.goto(collectionUrl);
    await page
      .getByRole('link', { name: /^Edit test result/ })
      .first()
      .click();
    await visible(page.getByRole('heading', { name: 'Edit test result' }));
    await visible(historyPanel(page).getByText(/^Created by/), 30_000);

    await page.goto(collectionUrl);
    await page.getByRole('link', { name: '746411 Yolo Bypass E' }).click();
    await visible(page.getByRole('heading', { name: '746411 Yolo Bypass E' }));
    await visible(historyPanel(page).getByText(/^Created by/), 30_000);
  });

  it('says the history needs a connection when the tablet is offline', async () => {
    await app.context.setOffline(true);
    await page.goto('/');
    await page.goto(collectionUrl);
    const panel = historyPanel(page);
    await visible(panel.getByText(/The history needs a connection/), 30_000);
    expect(await panel.getByText('Count of Cx tarsalis F-Mixed 41 → 14').count()).toBe(0);
    await panel.scrollIntoViewIfNeeded();
    await inspectScreen(page, 'collection-history-offline');
    await app.context.setOffline(false);
  });

  it('keeps the changes since list from a technician', async () => {
    await page.goto('/office/history');
    await visible(page.getByRole('heading', { name: 'Not found' }));
    expect(await page.getByRole('heading', { name: 'Changes since' }).count()).toBe(0);
  });

  it('lists the agency’s changes since a day for a manager, with a CSV of them', async () => {
    const office = await launchApp(stack.appUrl);
    try {
      const p = office.page;
      await signIn(p, { username: 'demo-manager', password: stack.password });
      await p.goto('/office/history');
      await visible(p.getByRole('heading', { name: 'Changes since' }));
      const list = p.getByRole('list', { name: 'Changes' });
      await visible(list.getByText('Count of Cx tarsalis F-Mixed 41 → 14'), 30_000);
      await visible(list.getByText(/^Site \(record \d+\): Created/));
      await inspectScreen(p, 'office-history');

      const [download] = await Promise.all([
        p.waitForEvent('download'),
        p.getByRole('button', { name: 'Download CSV' }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/^trapline-changes-since-\d{4}-\d\d-\d\d\.csv$/);
      const lines = (await readFile((await download.path())!, 'utf8'))
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n');
      expect(lines[0]).toBe('at,user,action,record_type,record_id,changes,changes_json');
      expect(lines.some((l) => l.includes(',update,Collection,') && l.includes('41 → 14'))).toBe(
        true,
      );
    } finally {
      await office.dispose();
    }
  });
});
