import { describe, expect, it } from 'vitest';
import {
  createCollectionAtSite,
  createSiteByMap,
  fillCollection,
  makePools,
  signInAgain,
  visible,
} from './harness/field-actions';
import { recordsApi } from './harness/records-api';
import { sessionEndsAt, signedInTablet, tabletOnFreshStack } from './harness/signed-in-tablet';
import { SIGN_IN_RUNS_OUT_MS } from './harness/stack';
import { outbox, outboxEmpties, PATHS, postsTo, refId } from './harness/sync-checks';

// The upstream token runs out while changes wait: the queue stops, the app asks for the
// password over whatever the technician is doing, and after signing in everything goes,
// without losing what was typed in the open form.
describe('sync: the upstream token expires while changes wait', () => {
  const tablet = tabletOnFreshStack();

  it('pauses the queue, asks for the password over a half-filled form, then sends it all and keeps the form', async () => {
    const { stack, app } = tablet;
    const page = app.page;
    const expiresAt = await signedInTablet(tablet);
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });

    // The first record of the day goes while the token is good.
    await createSiteByMap(page, { code: '742001', name: 'Token Marsh' });
    await outboxEmpties(page);
    const sitePath = new URL(page.url()).pathname;

    // Out of coverage: a collection and its pools queue up.
    await app.context.setOffline(true);
    await createCollectionAtSite(page, [{ species: 'Cx pipiens', sex: 'F-Mixed', count: 30 }]);
    await makePools(page);
    const queued = (await outbox(page)).length;
    expect(queued).toBe(2);

    // A second collection, half filled, stays open on screen.
    await page.goto(sitePath);
    await page.getByRole('link', { name: 'New collection here' }).click();
    const form = page.getByRole('form', { name: 'Collection' });
    await fillCollection(
      form,
      [{ species: 'Cx tarsalis', sex: 'F-Mixed', count: 41 }],
      'Half done',
    );

    // The sign-in runs out: the servers' clock passes its token's renew window.
    stack.clock.jumpTo(expiresAt + SIGN_IN_RUNS_OUT_MS);
    const sentBefore = stack.records.requests.length;

    await app.context.setOffline(false);
    const sheet = page.getByRole('dialog', { name: 'Sign in again' });
    await visible(sheet, 30_000);

    // Paused: nothing was created upstream, nothing left the outbox, the bar says why.
    await visible(page.getByRole('status').getByText(/^Sign in again to send 2 changes/));
    expect(postsTo(stack, PATHS.collection, sentBefore)).toBe(0);
    expect(postsTo(stack, PATHS.pool, sentBefore)).toBe(0);
    expect((await outbox(page)).length).toBe(queued);
    await expect(form.getByLabel('Comments').inputValue()).resolves.toBe('Half done');

    await signInAgain(page, stack.password);
    await outboxEmpties(page);

    const api = await recordsApi(stack.recordsUrl, stack.password);
    const [site] = (await api.sites('query[code]=742001')).rows;
    const collections = (await api.collections(`query[site]=${String(site.id)}`)).rows;
    expect(collections).toHaveLength(1);
    expect(refId(collections[0].site)).toBe(Number(site.id));
    const pools = (await api.pools(`query[collection]=${String(collections[0].id)}`)).rows;
    expect(pools.map((p) => Number(p.num_count))).toEqual([30]);

    // The form is still open and holds what was typed; saving it sends it too.
    await visible(form);
    await expect(form.getByLabel('Comments').inputValue()).resolves.toBe('Half done');
    await expect(form.getByLabel('Count (row 1)').inputValue()).resolves.toBe('41');
    await form.getByRole('button', { name: 'Save collection' }).click();
    await visible(page.getByRole('link', { name: 'Make pools' }));
    await outboxEmpties(page);
    const after = (await api.collections(`query[site]=${String(site.id)}`)).rows;
    expect(after.map((c) => c.comments)).toContain('Half done');
    expect(after).toHaveLength(2);
  });

  it('once signed in again in another tab, this tab stops asking for the password', async () => {
    const { stack, app } = tablet;
    const page = app.page;
    const expiresAt = await sessionEndsAt(page);
    const second = await app.context.newPage();
    await second.goto(page.url());
    const bar = page.getByRole('region', { name: 'Sync status' });
    const secondBar = second.getByRole('region', { name: 'Sync status' });
    await visible(secondBar);
    // The new tab has finished starting (lookups, its first pull): its start-up requests must
    // not be the ones the expiry meets, or that tab, not this one, is asked for the password.
    await second.waitForLoadState('networkidle');

    expect(expiresAt).toBeGreaterThan(stack.clock.now().getTime());
    stack.clock.jumpTo(expiresAt + SIGN_IN_RUNS_OUT_MS);
    // This tab asks for the password (Sync now reaches the server, which wants it)… On a loaded
    // machine the other tab's own request (its probe, a retry) may meet the expiry first: this tab
    // then hears that the queue waits for a sign-in and says so in its bar, with no sheet of its
    // own until the technician asks for it, which is what follows either way. In that case the
    // bar offers Sign in in place of Sync now (a clean run waited 30 s for Sync now so): the
    // technician taps whichever is there.
    await bar
      .getByRole('button', { name: /^(Sync now|Sign in)$/ })
      .first()
      .click();
    const sheet = page.getByRole('dialog', { name: 'Sign in again' });
    const waitsForSignIn = bar.getByText(/^Sign in again/);
    await visible(sheet.or(waitsForSignIn), 30_000);
    if (await sheet.isVisible()) await sheet.getByRole('button', { name: 'Later' }).click();
    await visible(waitsForSignIn);
    await bar.getByRole('button', { name: 'Sign in' }).click();
    await visible(sheet);

    // …and the technician signs in again in the other tab.
    // Brought to the front, that tab syncs (visibilitychange) and may open its own sheet first:
    // the technician then signs in there; otherwise they tap the bar's button for it.
    await second.bringToFront();
    await second.waitForLoadState('networkidle');
    const secondSheet = second.getByRole('dialog', { name: 'Sign in again' });
    if (!(await secondSheet.isVisible())) {
      await secondBar
        .getByRole('button', { name: /^(Sign in|Sync now)$/ })
        .click({ timeout: 10_000 })
        // The tab's own sheet opened in between and took the tap: it is the one to sign in on.
        .catch(async (err: unknown) => {
          if (!(await secondSheet.isVisible())) throw err;
        });
    }
    await signInAgain(second, stack.password);

    await sheet.waitFor({ state: 'hidden', timeout: 10_000 });
    await bar.getByText(/^Sign in again/).waitFor({ state: 'hidden', timeout: 10_000 });
    await visible(bar.getByRole('button', { name: 'Sync now' }));
    await second.close();
  });
});
