import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAppBuilt } from './harness/build-app';
import { launchApp, LANDSCAPE, PORTRAIT, type AppBrowser } from './harness/browser';
import { createCollectionAtSite, createSiteByMap, signIn, visible } from './harness/field-actions';
import { localRows, userDbName } from './harness/local-db';
import { inspectScreen } from './harness/inspect-screen';
import { screenScreenshot } from './harness/screenshot';
import { startStack, type Stack } from './harness/stack';

const NEWCOMER = 'river-tech';
const CHOSEN = 'culex-season-2026';

/**
 * The Office, end to end in Chromium: a manager adds a technician; on a second tablet the
 * technician signs in with the temporary password, chooses their own and enters a collection;
 * the manager deactivates them, and the second tablet gets the sign-in sheet with its unsent
 * changes kept.
 */
describe('Office: people', () => {
  let stack: Stack;
  let office: AppBrowser;
  let tablet: AppBrowser;

  beforeAll(async () => {
    await ensureAppBuilt();
    stack = await startStack();
    office = await launchApp(stack.appUrl, { viewport: LANDSCAPE });
    tablet = await launchApp(stack.appUrl, { viewport: PORTRAIT });
  });

  afterAll(async () => {
    await office?.dispose();
    await tablet?.dispose();
    await stack?.stop();
  });

  const unsent = (page: AppBrowser['page']) =>
    localRows(page, userDbName(1, NEWCOMER), 'outbox').then((rows) => rows.length);

  it('adds a technician, who chooses a password, works, and is signed out by deactivation', async () => {
    // The manager opens the Office from the navigation and adds a technician.
    const manager = office.page;
    await signIn(manager, { username: 'demo-manager', password: stack.password });
    await manager
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Office' })
      .click();
    await visible(manager.getByRole('heading', { name: 'Office', level: 1 }));
    await visible(manager.getByRole('link', { name: 'Import sites' }));
    await visible(manager.getByRole('link', { name: 'Changes' }));
    const add = manager.getByRole('form', { name: 'Add a person' });
    // A username already used: the server's words beside the field, and what was typed kept.
    await add.getByLabel('Username').fill('DEMO-TECH');
    await add.getByLabel('Full name').fill('River Okoye');
    await add.getByRole('button', { name: 'Add person' }).click();
    await visible(add.getByText('Already used: choose another'));
    await expect(add.getByLabel('Full name').inputValue()).resolves.toBe('River Okoye');
    await add.getByLabel('Username').fill(NEWCOMER);
    await add.getByLabel('Role').selectOption({ label: 'Technician' });
    await add.getByRole('button', { name: 'Add person' }).click();
    const shown = manager.getByRole('region', { name: `Temporary password for ${NEWCOMER}` });
    await visible(shown);
    const temporary = (await shown.getByTestId('shown-once-secret').textContent())!.trim();
    expect(temporary).toMatch(/^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/);
    const people = manager.getByRole('list', { name: 'People' });
    await visible(people.getByText('River Okoye'));
    await inspectScreen(manager, 'office');

    // The second tablet: the temporary password leads to "Choose your password".
    const page = tablet.page;
    const signInForm = page.getByRole('form', { name: 'Sign in' });
    await visible(signInForm);
    await signInForm.getByLabel('Username').fill(NEWCOMER);
    await signInForm.getByLabel('Password').fill(temporary);
    await signInForm.getByRole('button', { name: 'Sign in' }).click();
    const choose = page.getByRole('form', { name: 'Choose your password' });
    await visible(choose);
    await choose.getByLabel('New password', { exact: true }).fill('short');
    await choose.getByRole('button', { name: 'Set password and sign in' }).click();
    await visible(choose.getByText('Use at least 12 characters'));
    await screenScreenshot(page, '800x1280', 'choose-password');
    await choose.getByLabel('New password', { exact: true }).fill(CHOSEN);
    await choose.getByLabel('New password again').fill(CHOSEN);
    await choose.getByRole('button', { name: 'Set password and sign in' }).click();
    await visible(page.getByRole('heading', { name: /^Hello,/ }), 30_000);

    // A technician never sees the Office; its address says it is for managers.
    const nav = page.getByRole('navigation', { name: 'Main' });
    await visible(nav.getByRole('link', { name: 'Settings' }));
    expect(await nav.getByRole('link', { name: 'Office' }).count()).toBe(0);
    await page.goto('/office');
    await visible(page.getByText('The Office is for managers only.'));
    await page.goto('/');
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });

    // They enter a site and a collection, which reach the server.
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Sites' })
      .click();
    await createSiteByMap(page, { code: '650001', name: 'River Bend' });
    const sitePath = new URL(page.url()).pathname;
    await createCollectionAtSite(page, [{ species: 'Cx tarsalis', sex: 'F-Mixed', count: 41 }]);
    await expect.poll(() => unsent(page), { timeout: 45_000 }).toBe(0);

    // Out of coverage, a second collection waits on the tablet.
    await tablet.context.setOffline(true);
    await page.goto(sitePath);
    await createCollectionAtSite(page, [{ species: 'Cx pipiens', sex: 'F-Mixed', count: 7 }]);
    const waiting = await unsent(page);
    expect(waiting).toBe(1);

    // The manager deactivates them.
    await manager.getByRole('button', { name: `Deactivate: ${NEWCOMER}` }).click();
    await visible(manager.getByRole('button', { name: `Reactivate: ${NEWCOMER}` }));
    await visible(people.getByText('Deactivated'));

    // Back in coverage, the tablet's next request is refused: the sign-in sheet opens, and the
    // unsent collection is still on the tablet, waiting for its user.
    await tablet.context.setOffline(false);
    const sheet = page.getByRole('dialog', { name: 'Sign in again' });
    await visible(sheet, 30_000);
    await visible(sheet.getByText(NEWCOMER));
    expect(await unsent(page)).toBe(waiting);
    // Their password no longer signs in.
    await sheet.getByLabel('Password').fill(CHOSEN);
    await sheet.getByRole('button', { name: 'Sign in' }).click();
    await visible(sheet.getByText('Wrong username or password. Check both and try again.'));
    expect(await unsent(page)).toBe(waiting);
    expect(office.pageErrors.concat(tablet.pageErrors)).toEqual([]);
  });

  it('creates an agency token shown once, lists it without the token, and revokes it', async () => {
    const manager = office.page;
    await manager.getByRole('button', { name: 'Done' }).click();
    await visible(manager.getByRole('form', { name: 'Add a person' }));
    await manager.getByRole('button', { name: 'Create agency token' }).click();
    const shown = manager.getByRole('region', { name: 'New agency token' });
    await visible(shown);
    const token = (await shown.getByTestId('shown-once-secret').textContent())!.trim();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const tokens = manager.getByRole('list', { name: 'Agency tokens' });
    await visible(tokens.getByText(/^Token \d+$/));
    await shown.getByRole('button', { name: 'Done' }).click();
    await shown.waitFor({ state: 'detached' });
    expect(await manager.getByText(token).count()).toBe(0);
    await inspectScreen(manager, 'office-tokens');
    await tokens.getByRole('button', { name: /^Revoke token \d+$/ }).click();
    await visible(manager.getByText('No agency tokens.'));
    expect(office.pageErrors).toEqual([]);
  });
});
