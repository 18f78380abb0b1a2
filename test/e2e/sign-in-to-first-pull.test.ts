import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureAppBuilt } from './harness/build-app';
import { launchApp, type AppBrowser } from './harness/browser';
import { fillCollection, navigate, signIn, visible } from './harness/field-actions';
import { recordsApi } from './harness/records-api';
import { startStack, type Stack } from './harness/stack';
import { localTable } from './harness/sync-checks';

/** The built app's chunks (assets/<name>-<hash>.js) that a fresh tablet's sign-in waits on. */
const SIGNED_IN_CHUNK = /\/assets\/signed-in-app-[\w-]+\.js$/;
const DRAIN_CHUNK = /\/assets\/drain-outbox-[\w-]+\.js$/;
const PULL_CHUNK = /\/assets\/pull-records-[\w-]+\.js$/;

const SITE_LIST_CHUNK = /\/assets\/site-list-screen-[\w-]+\.js$/;
const SITES_MAP_CHUNK = /\/assets\/sites-map-[\w-]+\.js$/;
const COLLECTION_FORM_CHUNK = /\/assets\/collection-form-screen-[\w-]+\.js$/;
const SITE_DETAIL_CHUNK = /\/assets\/site-detail-screen-[\w-]+\.js$/;
const SITE_SPOT_CHUNK = /\/assets\/site-spot-map-[\w-]+\.js$/;
const PHOTO_STRIP_CHUNK = /\/assets\/photo-strip-[\w-]+\.js$/;
const COLLECTION_DETAIL_CHUNK = /\/assets\/collection-detail-screen-[\w-]+\.js$/;
const MAKE_POOLS_CHUNK = /\/assets\/make-pools-screen-[\w-]+\.js$/;

/** Whether a stand-in was shown since the count began, and the last one (what, where). */
type LoadingSeen = { loading: boolean; shown?: string };
declare global {
  interface Window {
    __loadingSeen?: LoadingSeen;
  }
}

/**
 * Notes whether the page ever shows what stands in for a screen whose code has not come: the
 * screen's "Loading…" (app-frame.tsx, route-screens.tsx) or the map's "Loading map…", from the
 * page's start; `resetLoadingSeen` starts the count again. (A form's own "Loading…" while it
 * reads the tablet's records is another matter: a plain paragraph, not counted.)
 */
async function watchLoading(page: Page): Promise<void> {
  await page.addInitScript(() => {
    // chunksEvaluated reads the page's resource timing: its buffer keeps 250 entries by default.
    performance.setResourceTimingBufferSize(100_000);
    const seen: LoadingSeen = { loading: false };
    window.__loadingSeen = seen;
    const standIns = () =>
      Array.from(document.querySelectorAll('p.screen, .map-loading'), (n) => n.textContent ?? '');
    new MutationObserver(() => {
      const shown = standIns().find((text) => /Loading( map)?…/.test(text));
      if (shown === undefined) return;
      seen.loading = true;
      seen.shown = `${shown} at ${location.pathname}`;
    }).observe(document, { childList: true, subtree: true, characterData: true });
  });
  await page.reload();
}

const resetLoadingSeen = (page: Page) =>
  page.evaluate(() => {
    if (window.__loadingSeen) window.__loadingSeen.loading = false;
  });
const loadingSeen = (page: Page) =>
  page.evaluate(() =>
    window.__loadingSeen?.loading ? (window.__loadingSeen.shown ?? 'shown') : false,
  );

/**
 * Waits until the page has fetched a chunk of each of `chunks` (its own imports, as it is idle)
 * and evaluated them: importing the same modules here resolves once the app's imports have.
 * Read from the page's resource timing, whose buffer watchLoading enlarges.
 */
async function chunksEvaluated(page: Page, chunks: RegExp[]): Promise<void> {
  let urls: string[] = [];
  await expect
    .poll(
      async () => {
        const names = await page.evaluate(() =>
          performance.getEntriesByType('resource').map((e) => e.name),
        );
        const found = chunks.map((chunk) => [
          ...new Set(names.filter((name) => chunk.test(new URL(name).pathname))),
        ]);
        urls = found.flat();
        return found.every((matches) => matches.length > 0);
      },
      { timeout: 30_000 },
    )
    .toBe(true);
  // A string: a function here would be compiled by the test runner, its import() rewritten.
  await page.evaluate(`Promise.all(${JSON.stringify(urls)}.map((m) => import(m)))`);
}

/**
 * From a fresh tablet's sign-in to its first page of sites, what can load at the same time does:
 * each chunk asked for only once the step before it had ended was a round trip more before the
 * district's sites arrived (a trace at 4x CPU: ~0.5 s each; more on one bar of signal).
 * Each case holds one answer at the network edge and watches what is asked for meanwhile.
 */
describe("a fresh tablet's sign-in and first pull", () => {
  let stack: Stack;
  let app: AppBrowser | undefined;

  beforeAll(async () => {
    await ensureAppBuilt();
    stack = await startStack();
  });

  afterEach(async () => {
    await app?.dispose();
    app = undefined;
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it("fetches the signed-in app while the session's answer is on its way, then opens Home", async () => {
    // No service worker: every chunk the page imports is a request these routes see.
    app = await launchApp(stack.appUrl, { serviceWorkers: 'block' });
    let answered = false;
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let askedWhileHeld: boolean | null = null;
    await app.context.route('**/api/session', async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      await held;
      answered = true;
      await route.continue();
    });
    app.context.on('request', (request) => {
      if (SIGNED_IN_CHUNK.test(new URL(request.url()).pathname) && askedWhileHeld === null)
        askedWhileHeld = !answered;
    });
    const page = app.page;
    const form = page.getByRole('form', { name: 'Sign in' });
    await visible(form);
    await form.getByLabel('Username').fill('demo-tech');
    await form.getByLabel('Password').fill(stack.password);
    await form.getByRole('button', { name: 'Sign in' }).click();

    // Held for as long as it takes (up to 15 s) for the signed-in app to be asked for.
    await expect
      .poll(() => askedWhileHeld, { timeout: 15_000 })
      .not.toBeNull()
      .catch(() => undefined);
    release();
    expect(askedWhileHeld, 'the signed-in app asked for before the session answered').toBe(true);
    await visible(page.getByRole('heading', { name: /^Hello,/ }), 30_000);
  });

  it('goes from the sign-in screen straight to Home, with no "Loading…" screen between them', async () => {
    // React shows a screen that suspends at its first render as "Loading…", and reveals what
    // came no sooner than 300 ms after that (its fallback throttle): every sign-in whose answer
    // came before the signed-in app's code waited that long for Home, its database and its pull.
    app = await launchApp(stack.appUrl, { serviceWorkers: 'block' });
    const page = app.page;
    await watchLoading(page);
    // The code comes only once the session has answered: the case the throttle cost most.
    let sessionAnswered: () => void = () => {};
    const answered = new Promise<void>((resolve) => (sessionAnswered = resolve));
    await app.context.route(SIGNED_IN_CHUNK, async (route) => {
      await answered;
      await route.continue();
    });
    page.on('response', (response) => {
      if (new URL(response.url()).pathname === '/api/session') sessionAnswered();
    });
    const form = page.getByRole('form', { name: 'Sign in' });
    await visible(form);
    await form.getByLabel('Username').fill('demo-tech');
    await form.getByLabel('Password').fill(stack.password);
    // Counted from the tap: what the page showed while it started is not this test's.
    await resetLoadingSeen(page);
    await form.getByRole('button', { name: 'Sign in' }).click();
    await visible(page.getByRole('heading', { name: /^Hello,/ }), 30_000);
    expect(await loadingSeen(page), '"Loading…" shown between Sign in and Home').toBe(false);
  });

  it('opens a restarted app with the technician remembered on Home, with no "Loading…" first', async () => {
    app = await launchApp(stack.appUrl, { serviceWorkers: 'block' });
    const page = app.page;
    await signIn(page, { username: 'demo-tech', password: stack.password });
    // The next morning: the app starts again, the signed-in app's code coming as it starts.
    await watchLoading(page);
    await visible(page.getByRole('heading', { name: /^Hello,/ }), 30_000);
    expect(await loadingSeen(page), '"Loading…" shown before Home').toBe(false);
  });

  it('opens Sites with its map, a site, a new collection and its pools, with no "Loading…", once Home has fetched their code', async () => {
    // A trap site the first pull brings (this stack's agency has only its Zero Site).
    const office = await recordsApi(stack.recordsUrl, stack.password);
    const made = await office.createSite({
      code: '736001',
      name: 'Eager Pond',
      lat: 38.6,
      lon: -121.5,
    });
    expect(made.status).toBe(201);
    app = await launchApp(stack.appUrl, { serviceWorkers: 'block' });
    const page = app.page;
    await watchLoading(page);
    await signIn(page, { username: 'demo-tech', password: stack.password });
    // Home fetches the code of the screens a technician opens from it while the tablet is idle.
    await chunksEvaluated(page, [SITE_LIST_CHUNK, SITES_MAP_CHUNK, COLLECTION_FORM_CHUNK]);

    await resetLoadingSeen(page);
    await navigate(page, 'Sites');
    await visible(page.getByRole('heading', { name: 'Sites' }));
    await visible(page.getByRole('region', { name: 'Map of sites' }));
    expect(await loadingSeen(page), '"Loading…" shown between Home and Sites').toBe(false);

    // Sites fetches the code of a site's page, its small map and its photos the same way.
    await chunksEvaluated(page, [SITE_DETAIL_CHUNK, SITE_SPOT_CHUNK, PHOTO_STRIP_CHUNK]);
    await page
      .getByRole('list', { name: 'Sites' })
      .getByRole('link', { name: /Eager Pond/ })
      .click();
    await visible(page.getByRole('heading', { level: 1, name: /Eager Pond/ }));
    await visible(page.locator('.site-spot-map .leaflet-container'));
    expect(await loadingSeen(page), '"Loading…" shown between Sites and a site').toBe(false);

    // From the site: New collection here, saved, then its pools; each screen fetches the code
    // of the next while it is shown.
    await page.getByRole('link', { name: 'New collection here' }).click();
    const form = page.getByRole('form', { name: 'Collection' });
    await visible(form);
    expect(await loadingSeen(page), '"Loading…" shown before New collection').toBe(false);
    await chunksEvaluated(page, [COLLECTION_DETAIL_CHUNK]);
    await fillCollection(form, [{ species: 'Cx tarsalis', sex: 'F-Mixed', count: 25 }]);
    await form.getByRole('button', { name: 'Save collection' }).click();
    await visible(page.getByRole('link', { name: 'Make pools' }));
    expect(await loadingSeen(page), '"Loading…" shown before the saved collection').toBe(false);
    await chunksEvaluated(page, [MAKE_POOLS_CHUNK]);
    await page.getByRole('link', { name: 'Make pools' }).click();
    await visible(page.getByRole('form', { name: 'Pools' }));
    expect(await loadingSeen(page), '"Loading…" shown before Make pools').toBe(false);
  });

  it('fetches nothing twice when the first sign-in is refused: the next one opens Home', async () => {
    app = await launchApp(stack.appUrl, { serviceWorkers: 'block' });
    const asked: string[] = [];
    app.context.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (SIGNED_IN_CHUNK.test(path)) asked.push(path);
    });
    const page = app.page;
    const form = page.getByRole('form', { name: 'Sign in' });
    await visible(form);
    await form.getByLabel('Username').fill('demo-tech');
    await form.getByLabel('Password').fill('not the password');
    await form.getByRole('button', { name: 'Sign in' }).click();
    await visible(page.getByText('Wrong username or password').first());
    await signIn(page, { username: 'demo-tech', password: stack.password });
    expect(asked).toHaveLength(1);
  });

  it("asks for the pull's code while the drain's is still on its way, then pulls every site", async () => {
    // No service worker: every chunk the page imports is a request these routes see.
    app = await launchApp(stack.appUrl, { serviceWorkers: 'block' });
    let drainAnswered = false;
    let releaseDrain = () => {};
    const drainHeld = new Promise<void>((resolve) => {
      releaseDrain = resolve;
    });
    let pullAskedWhileDrainHeld: boolean | null = null;
    await app.context.route(DRAIN_CHUNK, async (route) => {
      await drainHeld;
      drainAnswered = true;
      await route.continue();
    });
    app.context.on('request', (request) => {
      if (PULL_CHUNK.test(new URL(request.url()).pathname) && pullAskedWhileDrainHeld === null)
        pullAskedWhileDrainHeld = !drainAnswered;
    });
    const page = app.page;
    await signIn(page, { username: 'demo-tech', password: stack.password });

    // Held for as long as it takes (up to 15 s) for the pull's chunk to be asked for.
    await expect
      .poll(() => pullAskedWhileDrainHeld, { timeout: 15_000 })
      .not.toBeNull()
      .catch(() => undefined);
    releaseDrain();
    expect(pullAskedWhileDrainHeld, "the pull's code asked for before the drain's arrived").toBe(
      true,
    );

    // And the pull then runs as before: the tablet holds every site of the agency on the server.
    const { rows } = await stack.db.query<{ id: number }>(
      'select id from site where agency = 1 and delete_date is null',
    );
    expect(rows.length).toBeGreaterThan(0);
    await expect
      .poll(
        async () =>
          new Set((await localTable(page, 'sites')).map((s) => s.serverId as number | null)),
        { timeout: 30_000 },
      )
      .toEqual(new Set(rows.map((r) => r.id)));
  });
});
