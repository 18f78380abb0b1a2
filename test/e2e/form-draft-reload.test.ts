import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { describeViolations, seriousViolations } from './harness/axe';
import {
  createSiteByCoordinates,
  fillCollection,
  localIdFromUrl,
  visible,
} from './harness/field-actions';
import { eventually, localRows, userDbName } from './harness/local-db';
import { screenScreenshot } from './harness/screenshot';
import { signedInTabletOnFreshStack } from './harness/signed-in-tablet';

/** Look-alike rows: one species in two sexes with equal counts, then another species. */
const ROWS = [
  { species: 'Cx tarsalis', sex: 'F-Mixed', count: 25 },
  { species: 'Cx tarsalis', sex: 'Male', count: 25 },
  { species: 'Cx pipiens', sex: 'F-Mixed', count: 12 },
];
const RESTORED = /Restored what you typed on .+ before the app closed\./;

/** What each abundance row of the form shows: species and sex by their labels, and the count. */
async function shownRows(form: Locator) {
  const rows = [];
  for (let n = 1; (await form.getByLabel(`Species (row ${n})`).count()) > 0; n++) {
    const label = (name: string) =>
      form
        .getByLabel(`${name} (row ${n})`)
        .evaluate((s: HTMLSelectElement) => s.selectedOptions[0]?.textContent ?? '');
    rows.push({
      species: await label('Species'),
      sex: await label('Sex'),
      count: Number(await form.getByLabel(`Count (row ${n})`).inputValue()),
    });
  }
  return rows;
}

// The tab is reloaded (the OS reclaimed it, the app updated) while a collection is half typed:
// the typing is on the tablet and comes back, saying so; once saved, nothing comes back.
describe('a collection typed but not saved when the page reloads', () => {
  const tablet = signedInTabletOnFreshStack();
  const dbName = userDbName(1, 'demo-tech');
  const drafts = async () =>
    (await localRows(tablet.app.page, dbName, 'meta')).filter((r) =>
      String(r.key).startsWith('draft:'),
    );

  it('comes back with its rows and a notice; saved, a reload brings back nothing', async () => {
    const page = tablet.app.page;
    const siteId = await createSiteByCoordinates(page, {
      code: '746210',
      name: 'Draft Slough',
      lat: 38.55,
      lon: -121.74,
    });
    await page.getByRole('link', { name: 'New collection here' }).click();
    const form = page.getByRole('form', { name: 'Collection' });
    await fillCollection(form, ROWS, 'Gate left open');
    // The draft as last typed (the comment comes last): a draft written during a pause between
    // rows (400 ms of rest, easily reached on a loaded machine) holds only the rows before it.
    await eventually(
      drafts,
      (d) => d.length === 1 && JSON.stringify(d[0].value).includes('Gate left open'),
      { timeoutMs: 10_000, what: 'the draft as last typed' },
    );

    await page.reload();
    await visible(form);
    await visible(page.getByText(RESTORED));
    await expect.poll(() => shownRows(form)).toEqual(ROWS);
    expect(await form.getByLabel('Comments').inputValue()).toBe('Gate left open');
    expect(await form.getByLabel('Trap type').inputValue()).not.toBe('');
    const violations = await seriousViolations(page);
    expect(violations, describeViolations(violations)).toEqual([]);
    await screenScreenshot(page, '1280x800', 'collection-draft-restored');

    await form.getByRole('button', { name: 'Save collection' }).click();
    await visible(page.getByRole('link', { name: 'Make pools' }));
    const collectionId = localIdFromUrl(page, '/collections/');
    await eventually(drafts, (d) => d.length === 0, { timeoutMs: 10_000, what: 'no draft' });
    const saved = (await localRows(page, dbName, 'collections')).find(
      (r) => r.localId === collectionId,
    );
    expect((saved?.data as { arthropods: unknown[] }).arthropods).toHaveLength(ROWS.length);

    await page.reload();
    await visible(page.getByRole('link', { name: 'Make pools' }));
    await page.goto(`/collections/new?site=${siteId}`);
    await visible(form);
    await visible(form.getByText('No mosquitoes counted yet', { exact: false }));
    expect(await page.getByText(RESTORED).count()).toBe(0);
    expect(await form.getByLabel('Comments').inputValue()).toBe('');
  });
});
