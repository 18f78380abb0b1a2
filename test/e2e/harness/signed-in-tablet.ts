import { afterAll, beforeAll } from 'vitest';
import type { Page } from 'playwright-core';
import { ensureAppBuilt } from './build-app';
import { launchApp, type AppBrowser } from './browser';
import { launchSignedIn, signIn } from './field-actions';
import { startStack, type Stack } from './stack';

/** One tablet on a fresh stack, shared by the tests of a describe block. */
export type Tablet = { readonly stack: Stack; readonly app: AppBrowser };

/**
 * Registers the describe block's hooks: the app built, a fresh stack (its own database and
 * clock), one Chromium on a fresh profile; both closed after the block. Read the fields inside
 * tests only: they are set by `beforeAll`.
 */
export function tabletOnFreshStack(): Tablet {
  return tabletHooks((stack) => launchApp(stack.appUrl));
}

/**
 * As `tabletOnFreshStack`, with the demo technician signed in and the service worker controlling
 * the page (`launchSignedIn`): where most browser tests start.
 */
export function signedInTabletOnFreshStack(): Tablet {
  return tabletHooks((stack) => launchSignedIn(stack));
}

function tabletHooks(launch: (stack: Stack) => Promise<AppBrowser>): Tablet {
  let stack: Stack | undefined;
  let app: AppBrowser | undefined;
  beforeAll(async () => {
    await ensureAppBuilt();
    stack = await startStack();
    app = await launch(stack);
  });
  afterAll(async () => {
    await app?.dispose();
    await stack?.stop();
  });
  return {
    get stack() {
      if (!stack) throw new Error('the stack starts in beforeAll: read it inside a test');
      return stack;
    },
    get app() {
      if (!app) throw new Error('the browser starts in beforeAll: read it inside a test');
      return app;
    },
  };
}

/**
 * Signs the demo technician in on the tablet and answers when that sign-in's upstream token
 * ends (ms since the epoch, on the stack's clock): the moment a test jumps past to let it run out.
 */
export async function signedInTablet(tablet: Tablet): Promise<number> {
  await signIn(tablet.app.page, { username: 'demo-tech', password: tablet.stack.password });
  return sessionEndsAt(tablet.app.page);
}

/** When the tab's current sign-in ends, as `GET /api/session` says. */
export function sessionEndsAt(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const res = await fetch('/api/session', { headers: { 'X-CSRF': '1' } });
    return Date.parse(((await res.json()) as { expiresAt: string }).expiresAt);
  });
}
