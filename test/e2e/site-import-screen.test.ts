import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAppBuilt } from './harness/build-app';
import { launchApp, type AppBrowser } from './harness/browser';
import { navigate, signIn, visible } from './harness/field-actions';
import { inspectScreen } from './harness/inspect-screen';
import { startStack, type Stack } from './harness/stack';

/**
 * A district manager moves the agency's trap sites in from a spreadsheet (issue 37, contract
 * §12), in real Chromium against the real BFF and records service: a file with bad rows shows
 * every problem with its row and column and imports nothing; a good file's dry run says what it
 * will do, Import writes it, and the sites come to this tablet's Sites list.
 */
const HEADER =
  'code,name,latitude,longitude,coordinate_precision,active_date,deactive_date,comments';

const BAD = [
  HEADER,
  '410001,Putah Creek North,38.52,-121.77,1,,,',
  '410002,Swapped,-121.5,38.5,1,,,',
  '410003,Odd precision,38.5,-121.5,Satellite,,,',
  '410001,Twice,38.5,-121.5,1,,,',
].join('\r\n');

const GOOD = [
  HEADER,
  '410001,"Putah Creek, North",38.52,-121.77,1,2026-04-01,,"Under the ""big"" oak"',
  '410002,Dry Creek Outfall East,38.58,-121.49,GPS (< 10 m),,,',
].join('\r\n');

let stack: Stack;
let app: AppBrowser;

async function choose(page: Page, name: string, text: string) {
  await page
    .getByLabel('Choose a CSV or GeoJSON file')
    .or(page.getByLabel('Choose another file'))
    .setInputFiles({
      name,
      mimeType: 'text/csv',
      buffer: Buffer.from(`\ufeff${text}`, 'utf8'),
    });
}

describe('Office: Import sites', () => {
  beforeAll(async () => {
    await ensureAppBuilt();
    stack = await startStack();
    app = await launchApp(stack.appUrl);
    await signIn(app.page, { username: 'demo-manager', password: stack.password });
  }, 180_000);

  afterAll(async () => {
    await app?.dispose();
    await stack?.stop();
  });

  it('lists every bad row of a file with its row and column, and offers no import', async () => {
    const { page } = app;
    await page.goto('/office/import');
    await visible(page.getByRole('heading', { name: 'Import sites' }));
    await choose(page, 'bad-sites.csv', BAD);
    const check = await visible(page.getByRole('region', { name: 'Check of bad-sites.csv' }));
    await visible(check.getByText('3 problems in 3 rows'));
    const rows = check.getByRole('table', { name: 'Problems in the file' }).getByRole('row');
    await expect.poll(() => rows.count()).toBe(4);
    const cells = async (i: number) =>
      (await rows.nth(i).getByRole('cell').allInnerTexts()).slice(0, 2);
    expect(await cells(1)).toEqual(['3', 'latitude']);
    expect(await cells(2)).toEqual(['4', 'coordinate_precision']);
    expect(await cells(3)).toEqual(['5', 'code']);
    await expect.poll(() => rows.nth(3).innerText()).toMatch(/also on row 2/);
    expect(await check.getByRole('button', { name: /^Import/ }).count()).toBe(0);
    await inspectScreen(page, 'office-import-problems');
  });

  it('imports a good file after its dry run, and the sites appear in the Sites list', async () => {
    const { page } = app;
    await choose(page, 'district-sites.csv', GOOD);
    const check = await visible(page.getByRole('region', { name: 'Check of district-sites.csv' }));
    const facts = check.locator('dl');
    await expect
      .poll(() => facts.innerText())
      .toMatch(/Rows\s+2\s+To create\s+2\s+To update\s+0\s+Unchanged\s+0/);
    await inspectScreen(page, 'office-import-dry-run');
    await check.getByRole('button', { name: 'Import 2 sites' }).click();
    const done = await visible(
      page.getByRole('region', { name: 'Import of district-sites.csv' }),
      60_000,
    );
    await visible(done.getByText(/Tablets get the new sites at their next pull/));
    await inspectScreen(page, 'office-import-done');

    await navigate(page, 'Sites');
    const list = page.getByRole('list', { name: 'Sites' });
    await visible(list.getByText('Putah Creek, North'), 30_000);
    await visible(list.getByText('Dry Creek Outfall East'));

    // The same file again: nothing to do.
    await page.goto('/office/import');
    await choose(page, 'district-sites.csv', GOOD);
    const again = await visible(page.getByRole('region', { name: 'Check of district-sites.csv' }));
    await visible(again.getByText(/already in Trapline as it is/));
  });
});
