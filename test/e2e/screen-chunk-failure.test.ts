import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtChunk, dropFromCaches } from './harness/app-chunks';
import { ensureAppBuilt } from './harness/build-app';
import { launchApp, PORTRAIT, type AppBrowser } from './harness/browser';
import { launchSignedIn, navigate, signIn, visible } from './harness/field-actions';
import { screenshot } from './harness/screenshot';
import { startStack, type Stack } from './harness/stack';

// A technician in a truck opens a screen whose code cannot be fetched (no signal and the chunk
// not cached, or an old chunk gone after a new version): never a white page.
describe('a screen whose code cannot be loaded', () => {
  let stack: Stack;
  let app: AppBrowser;

  beforeAll(async () => {
    await ensureAppBuilt();
    stack = await startStack();
    app = await launchSignedIn(stack);
  });

  afterAll(async () => {
    await app?.dispose();
    await stack?.stop();
  });

  it('reloads once, then shows what happened with Reload; after Reload with the chunk back, the screen works', async () => {
    const page = app.page;
    const chunk = builtChunk('settings-screen');
    // Out of the service worker's precache, and refused on the network: for the page and for
    // the service worker's own fetch (the context's routes see both).
    const removed = await dropFromCaches(page, chunk);
    expect(removed).toBeGreaterThan(0);
    let refused = 0;
    const block = `**${chunk}*`;
    await app.context.route(block, (route) => {
      refused += 1;
      return route.abort('internetdisconnected');
    });
    let loads = 0;
    page.on('load', () => {
      loads += 1;
    });
    const logged: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') logged.push(m.text());
    });

    await navigate(page, 'Settings');
    const alert = page.getByRole('alert').filter({ hasText: 'This screen could not load' });
    await visible(alert, 30_000);
    // One automatic reload, not more.
    expect(loads).toBe(1);
    expect(refused).toBeGreaterThanOrEqual(2);
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent))
      .toBe('This screen could not load');
    const text = await alert.innerText();
    expect(text).toContain('What is saved on this tablet is safe.');
    expect(text).toContain('reload when you are back in signal');
    expect(text).not.toMatch(/Failed to fetch|\.js|:\d+:\d+/);
    await visible(alert.getByRole('button', { name: 'Reload' }));
    await visible(alert.getByRole('button', { name: 'Go to start' }));
    // The header and the navigation stay: not a blank page.
    await visible(page.getByRole('region', { name: 'Sync status' }));
    await visible(page.getByRole('navigation', { name: 'Main' }));
    expect(logged.some((l) => l.includes('Trapline: a screen failed to render'))).toBe(true);
    await screenshot(page, 'chunk-failure-1280x800');
    await page.setViewportSize(PORTRAIT);
    await screenshot(page, 'chunk-failure-800x1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'chunk-failure-390x844');

    // Back in signal: Reload opens the screen.
    await app.context.unroute(block);
    await alert.getByRole('button', { name: 'Reload' }).click();
    await visible(page.getByRole('heading', { name: 'Settings', exact: true }), 30_000);
    expect(await page.getByRole('alert').filter({ hasText: 'could not load' }).count()).toBe(0);
  });
});

// A fresh tablet's first visit: index.html paints the sign-in form before any script, and the
// form's code is a chunk of its own. If that chunk cannot come, the form must not sit there dead
// (typed into, tapped, nothing happening): the technician is told, as for any other screen.
describe('a first visit whose sign-in code cannot be loaded', () => {
  let stack: Stack;
  let app: AppBrowser | undefined;

  beforeAll(async () => {
    await ensureAppBuilt();
    stack = await startStack();
  });

  afterAll(async () => {
    await app?.dispose();
    await stack?.stop();
  });

  it('says the screen could not load; with the code back, Reload signs in', async () => {
    // No service worker: nothing is precached, the chunk comes from the network or not at all.
    app = await launchApp(stack.appUrl, { serviceWorkers: 'block' });
    const page = app.page;
    const block = `**${builtChunk('sign-in-screen')}*`;
    await app.context.route(block, (route) => route.abort('internetdisconnected'));
    await page.reload();

    const alert = page.getByRole('alert').filter({ hasText: 'This screen could not load' });
    await visible(alert, 30_000);
    await visible(alert.getByRole('button', { name: 'Reload' }));

    await app.context.unroute(block);
    await alert.getByRole('button', { name: 'Reload' }).click();
    await signIn(page, { username: 'demo-tech', password: stack.password });
  });
});
