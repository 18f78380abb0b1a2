import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAppBuilt } from './harness/build-app';
import { launchApp, type AppBrowser } from './harness/browser';
import { signIn, visible } from './harness/field-actions';
import { startStack, type Stack } from './harness/stack';

// A technician's first visit, on one bar of signal: the sign-in page must load only what it
// shows. It loaded the whole signed-in app with it (the database library, the sync engine, the
// shell), unused until sign-in: Lighthouse counted 80 KiB of unused JavaScript, and on a slow
// phone that code's download and start-up delayed the sign-in form. The signed-in app is now a
// chunk of its own, loaded on sign-in (and precached by the service worker for later visits).
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

/** The scripts the page has loaded so far (paths under the app's origin). */
const scriptsLoaded = () =>
  app.page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((e) => new URL(e.name).pathname)
      .filter((path) => path.endsWith('.js')),
  );

/** Of `paths`, the scripts that hold Dexie, the database library (its error class's name). */
async function withDatabaseLibrary(paths: string[]): Promise<string[]> {
  const found: string[] = [];
  for (const path of paths) {
    const text = await (await fetch(`${stack.appUrl}${path}`)).text();
    if (text.includes('DexieError')) found.push(path);
  }
  return found;
}

describe('the sign-in page of a first visit', () => {
  it('loads no database code before sign-in, and the signed-in app once signed in', async () => {
    const page = app.page;
    await visible(page.getByRole('form', { name: 'Sign in' }));
    const before = await scriptsLoaded();
    expect(before.length).toBeGreaterThan(0);
    expect(await withDatabaseLibrary(before)).toEqual([]);

    await signIn(page, { username: 'demo-tech', password: stack.password });
    expect(await withDatabaseLibrary(await scriptsLoaded())).not.toEqual([]);
    expect(app.pageErrors).toEqual([]);
  });
});
