import { describe, expect, it } from 'vitest';
import {
  browserDate,
  createCollectionAtSite,
  createSiteByCoordinates,
  makePools,
  openPoolTestForm,
  visible,
} from './harness/field-actions';
import { inspectScreen } from './harness/inspect-screen';
import { recordsApi } from './harness/records-api';
import { outboxEmpties } from './harness/sync-checks';
import { signedInTabletOnFreshStack } from './harness/signed-in-tablet';

// Issue 35 (4): "A pool shows 'Cx tarsalis F-Mixed × 25'; the server gave it pool_num 82 (seen
// only in the export). The technician cannot see what to write on the vial, and two equal pools
// look the same. The collection heading is a date."
describe('pool and collection numbers in Chromium', () => {
  const tablet = signedInTabletOnFreshStack();
  /** The numbers the server gave the two pools and their collection (first test). */
  let poolNumbers: number[] = [];
  let collectionNumber = 0;

  it('says "not yet numbered" offline, and shows the server’s numbers once synced', async () => {
    const page = tablet.app.page;
    await tablet.app.context.setOffline(true);
    await createSiteByCoordinates(page, {
      code: '751001',
      name: 'Numbered Slough',
      lat: 38.58,
      lon: -121.49,
    });
    // 100 Cx tarsalis make two equal pools of 50.
    await createCollectionAtSite(page, [{ species: 'Cx tarsalis', sex: 'F-Mixed', count: 100 }]);
    const collectionPath = new URL(page.url()).pathname;
    await makePools(page);

    const heading = page.getByRole('heading', { level: 1 });
    const poolTitles = page.getByRole('list', { name: 'Pools' }).locator('li.card strong');
    await expect.poll(() => heading.textContent()).toMatch(/^Collection not yet numbered · /);
    await expect
      .poll(() => poolTitles.allTextContents())
      .toEqual([
        'New pool 1 not yet numbered · Cx tarsalis F-Mixed × 50',
        'New pool 2 not yet numbered · Cx tarsalis F-Mixed × 50',
      ]);
    await inspectScreen(page, 'collection-detail-unnumbered');

    await tablet.app.context.setOffline(false);
    await outboxEmpties(page);

    const api = await recordsApi(tablet.stack.recordsUrl, tablet.stack.password);
    const [site] = (await api.sites('query[code]=751001')).rows;
    const [collection] = (await api.collections(`query[site]=${String(site.id)}`)).rows;
    const pools = (await api.pools(`query[collection]=${String(collection.id)}`)).rows;
    const numbers = pools.map((p) => Number(p.pool_num)).sort((a, b) => a - b);
    expect(new Set(numbers).size).toBe(2);
    poolNumbers = numbers;
    collectionNumber = Number(collection.collection_num);

    // The same page, not reloaded: the numbers arrive with the acknowledgements.
    expect(new URL(page.url()).pathname).toBe(collectionPath);
    await expect
      .poll(() => heading.textContent())
      .toMatch(new RegExp(`^Collection ${String(collection.collection_num)} · `));
    // Each pool with its own number (the two were sent side by side: either may have the lower).
    await expect
      .poll(async () => (await poolTitles.allTextContents()).sort())
      .toEqual(numbers.map((n) => `Pool ${n} · Cx tarsalis F-Mixed × 50`).sort());
    await inspectScreen(page, 'collection-detail-numbered');

    const form = await openPoolTestForm(page);
    await visible(form);
    await expect
      .poll(() => page.locator('p.record-title').textContent())
      .toMatch(new RegExp(`^Pool (${numbers.join('|')}) · Cx tarsalis F-Mixed × 50`));
    await inspectScreen(page, 'pool-test-numbered');
  });

  // Issue 35 (6): "Ct −5 and a test date 7 months ahead on a Confirmed WNV result, both synced".
  it('refuses a Ct of −5 and a test date after today on the open form, keeping what was typed', async () => {
    const page = tablet.app.page;
    const form = page.getByRole('form', { name: 'Pool test' });
    await visible(form);
    const tomorrow = await browserDate(page, 1);
    await form.getByLabel('Test method').selectOption({ label: 'RT-PCR' });
    await form.getByLabel('Target').selectOption({ index: 1 });
    await form.getByLabel('Result').selectOption({ label: 'Confirmed' });
    await form.getByLabel('Test date').fill(tomorrow);
    await form.getByLabel('Value (Ct)').fill('-5');
    const posts = tablet.stack.records.requests.length;
    await form.getByRole('button', { name: 'Save test result' }).click();

    await visible(form.getByText(/The test date cannot be after today/));
    await visible(form.getByText(/A test value cannot be negative \(a Ct is between 0 and 45\)/));
    expect(await form.getByLabel('Test date').inputValue()).toBe(tomorrow);
    expect(await form.getByLabel('Value (Ct)').inputValue()).toBe('-5');
    await inspectScreen(page, 'pool-test-refused');
    // Nothing was saved, so nothing was sent.
    expect(tablet.stack.records.requests.slice(posts).filter((r) => r.method === 'POST')).toEqual(
      [],
    );
    expect(new URL(page.url()).pathname).toMatch(/\/tests\/new$/);
  });

  it("heads a pool's edit screen as its tests' screen: the pool's number, from its collection's", async () => {
    const page = tablet.app.page;
    await page.goBack();
    await page
      .getByRole('list', { name: 'Pools' })
      .getByRole('link', { name: /^Edit pool/ })
      .first()
      .click();
    await visible(page.getByRole('heading', { name: 'Edit pool' }));
    await expect
      .poll(() => page.locator('p.record-title').textContent())
      .toMatch(
        new RegExp(
          `^Pool (${poolNumbers.join('|')}) · Cx tarsalis F-Mixed × 50 from Collection ${String(collectionNumber)} · `,
        ),
      );
    await inspectScreen(page, 'pool-edit-numbered');
  });
});
