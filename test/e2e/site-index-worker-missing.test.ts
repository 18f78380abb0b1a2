import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAppBuilt } from './harness/build-app';
import type { AppBrowser } from './harness/browser';
import {
  createSiteByCoordinates,
  fillCollection,
  launchSignedIn,
  navigate,
  visible,
} from './harness/field-actions';
import { healSiteIndexWorker, loseSiteIndexWorker } from './harness/site-index-worker';
import { startStack, type Stack } from './harness/stack';

// A tablet whose browser cannot load the site index worker's script (its file not served, not
// cached: loseSiteIndexWorker): the screens that wait for the index say so or read the sites themselves, never
// "Loading…" for ever.
describe('the site index worker cannot load', () => {
  let stack: Stack;
  let app: AppBrowser;
  let siteId: string;

  beforeAll(async () => {
    await ensureAppBuilt();
    stack = await startStack();
    app = await launchSignedIn(stack);
    siteId = await createSiteByCoordinates(app.page, {
      code: '760001',
      name: 'No Index Slough',
      lat: 38.52,
      lon: -121.48,
    });
    await loseSiteIndexWorker(app.context);
    await app.page.reload();
  });

  afterAll(async () => {
    await app?.dispose();
    await stack?.stop();
  });

  it('opens New collection at a site and saves it, reading the sites itself', async () => {
    const page = app.page;
    await page.goto(`/sites/${siteId}`);
    await page.getByRole('link', { name: 'New collection here' }).click();
    const form = page.getByRole('form', { name: 'Collection' });
    await fillCollection(form, [{ species: 'Cx tarsalis', sex: 'F-Mixed', count: 7 }]);
    await form.getByRole('button', { name: 'Save collection' }).click();
    await visible(page.getByRole('link', { name: 'Make pools' }));
    expect(app.pageErrors).toEqual([]);
  });

  it('says on the Sites screen that the sites could not be read, not Loading', async () => {
    const page = app.page;
    await navigate(page, 'Sites');
    await visible(page.getByRole('alert').filter({ hasText: /could not be read/ }));
  });

  it('starts the index again when Sites is opened again and the worker can load now', async () => {
    const page = app.page;
    await healSiteIndexWorker(page);
    await navigate(page, 'Home');
    await navigate(page, 'Sites');
    await visible(page.getByRole('link', { name: /760001 No Index Slough/ }));
    expect(
      await page
        .getByRole('alert')
        .filter({ hasText: /could not be read/ })
        .count(),
    ).toBe(0);
  });
});
