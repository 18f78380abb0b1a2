import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAppBuilt } from './harness/build-app';
import { launchApp, type AppBrowser } from './harness/browser';
import { signIn } from './harness/field-actions';
import { startStack, type Stack } from './harness/stack';
import { localTable } from './harness/sync-checks';

/** The built app's chunks of the drain and of the pull (assets/<name>-<hash>.js). */
const DRAIN_CHUNK = /\/assets\/drain-outbox-[\w-]+\.js$/;
const PULL_CHUNK = /\/assets\/pull-records-[\w-]+\.js$/;

/**
 * A fresh tablet's first sync after sign-in drains the outbox, then pulls the district's sites.
 * The pull's code is a chunk of its own: it must be on its way while the drain's still is, not
 * asked for only once the drain has ended (one round trip more before the first page of sites,
 * ~0.5 s at 4x CPU in a trace; more on one bar of signal).
 */
describe('the first sync after sign-in', () => {
  let stack: Stack;
  let app: AppBrowser;

  beforeAll(async () => {
    await ensureAppBuilt();
    stack = await startStack();
  });

  afterAll(async () => {
    await app?.dispose();
    await stack?.stop();
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
