import type { CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAppBuilt } from './harness/build-app';
import type { AppBrowser } from './harness/browser';
import { ledger, printLedger, queuedEntries } from './harness/chaos-ledger';
import {
  createSiteByMap,
  fillCollection,
  launchSignedIn,
  navigate,
  visible,
} from './harness/field-actions';
import { startStack, type Stack } from './harness/stack';
import { localTable, outbox, outboxEmpties } from './harness/sync-checks';

/** Every record with a queued or failed state has its entry, and every entry its record. */
async function halfWritten(page: Page): Promise<string[]> {
  const entries = await outbox(page);
  const problems: string[] = [];
  const tables = { site: 'sites', collection: 'collections', pool: 'pools', poolTest: 'poolTests' };
  for (const [entity, table] of Object.entries(tables)) {
    const rows = await localTable(page, table as 'sites');
    const mine = entries.filter((e) => e.entity === entity);
    for (const e of mine)
      if (!rows.some((r) => r.localId === e.localId))
        problems.push(`${entity} entry ${String(e.id)} has no record`);
    for (const r of rows)
      if (r.serverId === null && !mine.some((e) => e.localId === r.localId))
        problems.push(`${entity} ${String(r.localId)} has no entry and no server id`);
  }
  return problems;
}

// The tablet's storage is full while a technician saves a collection: the save is refused
// as a whole (no record without its outbox entry, no entry without its record), the form keeps
// every value typed and says why; once space frees, the same form saves and syncs once.
describe('chaos (browser): storage quota exceeded while saving', () => {
  let stack: Stack;
  let app: AppBrowser;
  let cdp: CDPSession;
  let origin: string;

  beforeAll(async () => {
    await ensureAppBuilt();
    stack = await startStack();
    app = await launchSignedIn(stack);
    origin = new URL(stack.appUrl).origin;
  });

  afterAll(async () => {
    await cdp?.send('Storage.overrideQuotaForOrigin', { origin }).catch(() => undefined);
    await app?.dispose();
    await stack?.stop();
  });

  it('refuses the save whole, keeps the typing, and saves and syncs once space frees', async () => {
    const site = { code: '749301', name: 'Full Disk Flats' };
    await app.context.setOffline(true);
    const siteLocalId = await createSiteByMap(app.page, site);
    const before = { collections: (await localTable(app.page, 'collections')).length };
    const entriesBefore = (await outbox(app.page)).length;

    // The tablet fills up. Chromium enforces a quota override only on an origin whose IndexedDB
    // is not open yet (checked: an open one takes 100 KB past a 1-byte quota), so the app's tab
    // closes (a blank tab keeps the browser and its session up) and reopens under the quota.
    const page = await app.context.newPage();
    cdp = await app.context.newCDPSession(page);
    await cdp.send('Storage.overrideQuotaForOrigin', { origin, quotaSize: 1 });
    await app.page.close();
    await page.waitForTimeout(3_000);
    await page.goto(`/sites/${siteLocalId}`);
    await page.getByRole('link', { name: 'New collection here' }).click();
    const form = page.getByRole('form', { name: 'Collection' });
    const rows = [{ species: 'Cx tarsalis', sex: 'F-Mixed', count: 100 }];
    await fillCollection(form, rows, 'typed while the tablet was full');
    await form.getByRole('button', { name: 'Save collection' }).click();
    await visible(page.getByText(/^Could not save on this tablet: /)).catch(
      async (err: unknown) => {
        const alerts = await page.getByRole('alert').allInnerTexts();
        const est = await page.evaluate(async () => navigator.storage.estimate());
        throw new Error(
          `${String(err)}\nat ${page.url()} storage ${JSON.stringify(est)}; alerts ${JSON.stringify(alerts)}; collections ${(await localTable(page, 'collections')).length} (before ${before.collections})`,
        );
      },
    );
    // Still on the form, with every value as typed.
    expect(new URL(page.url()).pathname).not.toMatch(/^\/collections\/[0-9a-f-]{36}$/);
    await expect.poll(() => form.getByLabel('Count (row 1)').inputValue()).toBe('100');
    expect(await form.getByLabel('Comments').inputValue()).toBe('typed while the tablet was full');
    expect(await form.getByLabel('Species (row 1)').inputValue()).not.toBe('');
    // Nothing half-written: no new record, no new entry, every entry with its record.
    expect((await localTable(page, 'collections')).length).toBe(before.collections);
    expect((await outbox(page)).length).toBe(entriesBefore);
    expect(await halfWritten(page)).toEqual([]);

    // Space frees: the same form, untouched, saves.
    await cdp.send('Storage.overrideQuotaForOrigin', { origin });
    await form.getByRole('button', { name: 'Save collection' }).click();
    await visible(page.getByRole('link', { name: 'Make pools' }));
    expect(await halfWritten(page)).toEqual([]);
    const queued = await queuedEntries(page);
    expect(queued.map((e) => e.entity).sort()).toEqual(['collection', 'site']);
    expect(queued.find((e) => e.entity === 'site')?.localId).toBe(siteLocalId);

    await app.context.setOffline(false);
    await outboxEmpties(page, 60_000);
    const row = await ledger('quota exceeded while saving', page, stack, queued, site.code);
    printLedger(row);
    expect(row.details).toEqual([]);
    expect(row).toMatchObject({ entries: 2, lost: 0, duplicated: 0, wrong: 0, stuck: 0 });
  }, 240_000);
  // The browser clears the app's stored data while it is open (the tablet's "clear site data", a
  // storage failure), with a change not yet sent. The app cannot stop it; it must say so, loudly,
  // and never go on as if nothing waited ("All changes sent") on an empty database made afresh.
  // The data is cleared through the browser's own DevTools protocol. Last: it clears the profile.
  it('when the browser clears the app storage with a change waiting, says it may be gone, never that all was sent', async () => {
    // The tab the test above left open (it closed the first one).
    const page = app.context.pages().find((p) => !p.isClosed()) ?? (await app.newTab());
    await app.context.setOffline(true);
    await createSiteByMap(page, { code: '749401', name: 'Cleared Pond' });
    expect(await outbox(page)).toHaveLength(1);

    cdp ??= await app.context.newCDPSession(page);
    await cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'indexeddb' });
    await page.waitForTimeout(1_000);
    await navigate(page, 'Home');
    await navigate(page, 'Sites');
    await navigate(page, 'Home');
    await page.waitForTimeout(1_000);

    const bar = page.getByRole('region', { name: 'Sync status' });
    const said = await bar.innerText();
    const alerts = await page.getByRole('alert').allInnerTexts();
    expect(alerts.join('\n'), `bar: ${said}`).toMatch(/cleared|lost|gone/i);
    await visible(page.getByRole('alert').filter({ hasText: /not sent/i }));
    expect(await bar.innerText()).not.toContain('All changes sent');
    // No empty database was made afresh in its place behind the screens.
    const names = await page.evaluate(async () =>
      (await indexedDB.databases()).map((d) => d.name ?? ''),
    );
    expect(names.filter((n) => n.includes('demo-tech'))).toEqual([]);
  });
});
