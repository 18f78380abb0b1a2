import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAppBuilt } from './harness/build-app';
import { launchApp, type AppBrowser } from './harness/browser';
import { navigate, signIn, visible } from './harness/field-actions';
import { startStack, type Stack } from './harness/stack';

// A technician opens Trapline for the first time at the depot, signs in and drives out of
// signal without ever reloading. The screens not opened yet are chunks loaded on first use: the
// service worker has them, but it only answered for pages opened after it was installed, so
// this first page asked the network for them and Settings, Reports or a new collection did not
// open offline until the app was reopened (seen as a load-sensitive e2e failure: the collection
// form of a fresh profile never appeared offline). The worker now takes the page it was installed
// from (Workbox's clientsClaim).
let stack: Stack;
let app: AppBrowser;

beforeAll(async () => {
  await ensureAppBuilt();
  stack = await startStack();
  app = await launchApp(stack.appUrl);
}, 240_000);

afterAll(async () => {
  await app?.dispose();
  await stack?.stop();
});

describe('the first visit, then no signal', () => {
  it('opens screens never opened before, with no reload in between', async () => {
    const page = app.page;
    await signIn(page, { username: 'demo-tech', password: stack.password });
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    // The page the worker was installed from is its own, without a reload.
    await expect
      .poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), {
        timeout: 10_000,
      })
      .toBe(true);
    await app.context.setOffline(true);
    await navigate(page, 'Settings');
    await visible(page.getByRole('heading', { name: 'Settings' }));
    await navigate(page, 'New collection');
    await visible(page.getByRole('form', { name: 'Collection' }));
    expect(app.pageErrors).toEqual([]);
    await app.context.setOffline(false);
  });
});
