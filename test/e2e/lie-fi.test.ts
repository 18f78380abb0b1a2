import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAppBuilt } from './harness/build-app';
import { launchApp, type AppBrowser } from './harness/browser';
import { navigate, signIn, syncNow, visible } from './harness/field-actions';
import { inspectScreen } from './harness/inspect-screen';
import { startStack, type Stack } from './harness/stack';

/**
 * Lie-fi: the tablet joined to a truck's hotspot with nothing behind it. The browser says online
 * (`navigator.onLine` stays true, no `offline` event) while every request to the server fails or
 * hangs. The app must say "no connection" from its own requests, on every screen alike, and say
 * connected again once a request gets an answer, with no `online` event.
 */
describe('lie-fi: the browser says online, no request gets through', () => {
  let stack: Stack;
  let app: AppBrowser;

  const bar = (page: Page) => page.getByRole('region', { name: 'Sync status' });
  const openReports = (page: Page) =>
    page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Reports', exact: true })
      .click();
  /** Counts the browser's `online` events from now on (none must be needed to come back). */
  const countOnlineEvents = (page: Page) =>
    page.evaluate(() => {
      const w = window as unknown as { onlineEvents: number };
      w.onlineEvents = 0;
      window.addEventListener('online', () => (w.onlineEvents += 1));
    });
  const onlineEvents = (page: Page) =>
    page.evaluate(() => (window as unknown as { onlineEvents: number }).onlineEvents);

  beforeAll(async () => {
    await ensureAppBuilt();
    stack = await startStack();
    app = await launchApp(stack.appUrl);
    // A manager: Reports is on their navigation.
    await signIn(app.page, { username: 'demo-manager', password: stack.password });
    await app.page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
  });

  afterAll(async () => {
    await app?.dispose();
    await stack?.stop();
  });

  it('Home, the sync bar and Reports agree on no connection, and come back when a request gets an answer', async () => {
    const page = app.page;
    // A report opened while connected: the copy Reports falls back on.
    await openReports(page);
    await visible(page.getByTestId('report-computed').filter({ hasNotText: 'updating' }), 60_000);
    await navigate(page, 'Home');
    await visible(page.getByText('Online', { exact: true }));
    await countOnlineEvents(page);

    // The hotspot: every request to the server fails, and the browser still says online.
    await page.route('**/api/**', (route) => route.abort('internetdisconnected'));
    await syncNow(page);
    await visible(bar(page).getByText(/^Offline — changes are saved on this tablet/), 30_000);
    await visible(page.getByText('Offline: saving on this tablet'));
    expect(await page.evaluate(() => navigator.onLine)).toBe(true);
    await inspectScreen(page, 'home-lie-fi');

    await openReports(page);
    await visible(page.getByText(/You are offline\. This is the report as computed/), 30_000);
    await visible(bar(page).getByText(/^Offline — /));
    await inspectScreen(page, 'reports-lie-fi');

    // The network comes back, with no `online` event: the app's probe gets an answer.
    await page.unroute('**/api/**');
    await page.getByText(/You are offline\./).waitFor({ state: 'hidden', timeout: 60_000 });
    await visible(bar(page).getByText('All changes sent'), 30_000);
    await navigate(page, 'Home');
    await visible(page.getByText('Online', { exact: true }));
    expect(await onlineEvents(page)).toBe(0);
  });

  it('says no connection when requests hang with no answer, and comes back when they are answered', async () => {
    const page = app.page;
    await navigate(page, 'Home');
    await visible(page.getByText('Online', { exact: true }));
    await countOnlineEvents(page);

    // Held, never answered: the request's own time limit (30 s) is what tells.
    const held: Array<() => Promise<void>> = [];
    await page.route('**/api/**', (route) => {
      held.push(() => route.abort('timedout').catch(() => undefined));
    });
    await syncNow(page);
    await visible(page.getByText('Offline: saving on this tablet'), 60_000);
    await visible(bar(page).getByText(/^Offline — /));

    await page.unroute('**/api/**');
    for (const release of held.splice(0)) await release();
    await visible(page.getByText('Online', { exact: true }), 60_000);
    await visible(bar(page).getByText('All changes sent'), 30_000);
    expect(await onlineEvents(page)).toBe(0);
  });
});
