import { describe, expect, it } from 'vitest';
import { navigate, syncNow, visible } from './harness/field-actions';
import { signedInTablet, tabletOnFreshStack } from './harness/signed-in-tablet';
import { SIGN_IN_RUNS_OUT_MS } from './harness/stack';

// Tablet trial: the "Sign in again" sheet focused the read-only Username, so the on-screen
// keyboard did not open, and after signing in the app showed Settings instead of the screen
// the technician was on.
describe('sign in again: the password has the keyboard and the technician stays where they were', () => {
  const tablet = tabletOnFreshStack();

  it('focuses Password, signs in with the keyboard alone and keeps the site page on screen', async () => {
    const { stack, app } = tablet;
    const page = app.page;
    const expiresAt = await signedInTablet(tablet);
    // The start's sync done and nothing in flight before the servers' clock jumps: it waits for
    // the page to be idle, and a pull of its running after the jump meets the expiry and opens
    // the sheet before Sync now is tapped (1 of 4 loaded runs at load 21-25).
    await visible(
      page.getByRole('region', { name: 'Sync status' }).getByText(/Last synced/),
      45_000,
    );

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
    const sheet = page.getByRole('dialog', { name: 'Sign in again' });
    // Sync now's request, unless one of the app's own got there first (the sheet then covers the
    // button and takes the tap: a clean run failed so): either way the sheet is what comes.
    const tapped = syncNow(page).catch(() => undefined);
    await Promise.race([tapped, sheet.waitFor({ state: 'visible', timeout: 30_000 })]);
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
