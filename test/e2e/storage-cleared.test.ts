import type { CDPSession } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAppBuilt } from './harness/build-app';
import type { AppBrowser } from './harness/browser';
import { createSiteByMap, launchSignedIn, navigate, visible } from './harness/field-actions';
import { startStack, type Stack } from './harness/stack';
import { outbox } from './harness/sync-checks';

/**
 * The browser clears the app's stored data while it is open (the tablet's "clear site data", a
 * storage failure), with a change not yet sent. The app cannot stop it; it must say so, loudly,
 * and never go on as if nothing waited ("All changes sent") on an empty database made afresh.
 *
 * Real parts: the app in Chromium against the BFF and the records service; the data is cleared
 * through the browser's own DevTools protocol (Storage.clearDataForOrigin).
 */
describe('the browser clears the app storage while a change waits', () => {
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
    await app?.dispose();
    await stack?.stop();
  });

  it('says the unsent change may be gone, and never that all changes were sent', async () => {
    await app.context.setOffline(true);
    await createSiteByMap(app.page, { code: '749401', name: 'Cleared Pond' });
    expect(await outbox(app.page)).toHaveLength(1);

    cdp = await app.context.newCDPSession(app.page);
    await cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'indexeddb' });
    await app.page.waitForTimeout(1_000);
    await navigate(app.page, 'Home');
    await navigate(app.page, 'Sites');
    await navigate(app.page, 'Home');
    await app.page.waitForTimeout(1_000);

    const bar = app.page.getByRole('region', { name: 'Sync status' });
    const said = await bar.innerText();
    const alerts = await app.page.getByRole('alert').allInnerTexts();
    expect(alerts.join('\n'), `bar: ${said}`).toMatch(/cleared|lost|gone/i);
    await visible(app.page.getByRole('alert').filter({ hasText: /not sent/i }));
    expect(await bar.innerText()).not.toContain('All changes sent');
    // No empty database was made afresh in its place behind the screens.
    const names = await app.page.evaluate(async () =>
      (await indexedDB.databases()).map((d) => d.name ?? ''),
    );
    expect(names.filter((n) => n.includes('demo-tech'))).toEqual([]);
  });
});
