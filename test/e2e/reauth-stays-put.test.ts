import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAppBuilt } from './harness/build-app';
import { launchApp, type AppBrowser } from './harness/browser';
import { navigate, signIn, syncNow, visible } from './harness/field-actions';
import { SIGN_IN_RUNS_OUT_MS, startStack, type Stack } from './harness/stack';

// Tablet trial: the "Sign in again" sheet focused the read-only Username, so the on-screen
// keyboard did not open, and after signing in the app showed Settings instead of the screen
// the technician was on.
describe('sign in again: the password has the keyboard and the technician stays where they were', () => {
  let stack: Stack;
  let app: AppBrowser;

  beforeAll(async () => {
    await ensureAppBuilt();
    stack = await startStack();
    app = await launchApp(stack.appUrl);
  });

  afterAll(async () => {
    await app?.dispose();
    await stack?.stop();
  });

  it('focuses Password, signs in with the keyboard alone and keeps the site page on screen', async () => {
    const page = app.page;
    await signIn(page, { username: 'demo-tech', password: stack.password });
    const expiresAt = await page.evaluate(async () => {
      const res = await fetch('/api/session', { headers: { 'X-CSRF': '1' } });
      return Date.parse(((await res.json()) as { expiresAt: string }).expiresAt);
    });

    // The technician is on a site's page.
    await navigate(page, 'Sites');
    const firstSite = page.getByRole('list', { name: 'Sites' }).getByRole('link').first();
    await visible(firstSite);
    await firstSite.click();
    await visible(page.getByRole('link', { name: 'New collection here' }));
    const sitePath = new URL(page.url()).pathname;
    const siteHeading = await page.getByRole('heading', { level: 1 }).innerText();

    // The sign-in runs out (the servers' clock passes the renew window); the next sync asks for it.
    stack.clock.jumpTo(expiresAt + SIGN_IN_RUNS_OUT_MS);
    await syncNow(page);
    const sheet = page.getByRole('dialog', { name: 'Sign in again' });
    await visible(sheet, 30_000);

    // The password field has the focus (a tablet opens its keyboard for it).
    const focused = await page.evaluate(() => {
      const el = document.activeElement;
      return el?.id ? document.querySelector(`label[for="${el.id}"]`)?.textContent : el?.tagName;
    });
    expect(focused).toBe('Password');

    // Typed and sent from the keyboard alone, as with a tablet's "Go" key.
    await page.keyboard.type(stack.password);
    await page.keyboard.press('Enter');
    await sheet.waitFor({ state: 'hidden', timeout: 30_000 });

    // Still on the site's page.
    await visible(page.getByRole('link', { name: 'New collection here' }));
    expect(new URL(page.url()).pathname).toBe(sitePath);
    await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe(siteHeading);
    expect(app.pageErrors).toEqual([]);
  });
});
