import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/**
 * Debian's headless shell when installed (.ci/run installs it): the same Blink and V8 as its
 * Chromium, without the browser's UI process around them. The e2e files spent ~190 s of CPU in
 * Chromium, most of the browser project's; the shell does the same pages for less.
 * TRAPLINE_CHROMIUM names another binary: the suite on an older or newer Chromium than the one
 * installed (a tablet's browser is not always current; README, "Testing on another Chromium").
 */
export const CHROMIUM =
  process.env.TRAPLINE_CHROMIUM ||
  (existsSync('/usr/bin/chromium-headless-shell')
    ? '/usr/bin/chromium-headless-shell'
    : '/usr/bin/chromium');

/** Flags for Debian's Chromium in a container with no network beyond loopback. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export type Viewport = { width: number; height: number };
export const LANDSCAPE: Viewport = { width: 1280, height: 800 };
export const PORTRAIT: Viewport = { width: 800, height: 1280 };

export type AppBrowser = {
  context: BrowserContext;
  /** The first tab, already at the app's start page. */
  page: Page;
  /** The profile directory: reopen it with `reopen()` after `close()`. */
  profileDir: string;
  /** Uncaught errors of every page of the context, for failure messages. */
  pageErrors: string[];
  /**
   * What the pages said, timed: uncaught errors, console errors (an error an error boundary
   * caught is never a page error, only a console line: React reports it there) and loads of a
   * tab's page (a reload draws every screen afresh).
   */
  pageLog: string[];
  /** Opens another tab of the same profile at `path`. */
  newTab(path?: string): Promise<Page>;
  /** Closes the browser but keeps the profile on disk (IndexedDB, service worker, cookies). */
  close(): Promise<void>;
  /** Starts Chromium again on the same profile and opens `path` (`offline`: with no network). */
  reopen(path?: string, options?: { offline?: boolean }): Promise<void>;
  /** Closes the browser and deletes the profile. */
  dispose(): Promise<void>;
};

/**
 * Launches Debian's Chromium with a fresh temporary profile (a persistent context, so the same
 * profile can be closed and reopened) and opens the app at `baseUrl + path`.
 * The app is served from 127.0.0.1, which Chromium treats as a secure origin: Secure cookies and
 * the service worker work without TLS.
 */
export async function launchApp(
  baseUrl: string,
  /**
   * `locale`: the browser's language (navigator.languages), en-US unless said. `args`: more
   * Chromium flags for this browser (a fake camera, for instance). `serviceWorkers: 'block'`:
   * the app's service worker never installs, so every chunk the page imports is a request the
   * test's routes see (a worker would serve it from its precache).
   */
  options: {
    viewport?: Viewport;
    path?: string;
    locale?: string;
    args?: string[];
    serviceWorkers?: 'allow' | 'block';
  } = {},
): Promise<AppBrowser> {
  const profileDir = await mkdtemp(join(tmpdir(), 'trapline-e2e-profile-'));
  const pageErrors: string[] = [];
  const pageLog: string[] = [];
  const watch = (page: Page) => {
    page.on('pageerror', (err) => {
      pageErrors.push(`${page.url()}: ${err.message}`);
      pageLog.push(`${clock()} pageerror ${page.url()}: ${err.stack ?? err.message}`);
    });
    page.on('console', (message) => {
      const type = message.type();
      if (type !== 'error' && type !== 'warning') return;
      // A failed load's message does not name what failed; its location does.
      const from = message.location().url;
      const what = from && from !== page.url() ? ` (${from})` : '';
      pageLog.push(`${clock()} console.${type} ${page.url()}: ${message.text()}${what}`);
    });
    // The page's own requests only: a service worker's are not seen here.
    page.on('requestfailed', (request) =>
      pageLog.push(
        `${clock()} failed ${request.resourceType()} ${request.url()}: ${request.failure()?.errorText}`,
      ),
    );
    page.on('load', () => pageLog.push(`${clock()} loaded ${page.url()}`));
  };

  const start = async (path: string, offline = false) => {
    const context = await chromium.launchPersistentContext(profileDir, {
      offline,
      executablePath: CHROMIUM,
      args: [...CHROMIUM_ARGS, ...(options.args ?? [])],
      headless: true,
      viewport: options.viewport ?? LANDSCAPE,
      baseURL: baseUrl,
      serviceWorkers: options.serviceWorkers ?? 'allow',
      locale: options.locale ?? 'en-US',
      timezoneId: 'America/Los_Angeles',
    });
    context.on('page', watch);
    const page = context.pages()[0] ?? (await context.newPage());
    watch(page);
    await page.goto(path);
    return { context, page };
  };

  const first = await start(options.path ?? '/');
  const app: AppBrowser = {
    context: first.context,
    page: first.page,
    profileDir,
    pageErrors,
    pageLog,
    async newTab(path = '/') {
      const page = await app.context.newPage();
      await page.goto(path);
      return page;
    },
    async close() {
      await app.context.close();
    },
    async reopen(path = '/', { offline = false } = {}) {
      const next = await start(path, offline);
      app.context = next.context;
      app.page = next.page;
    },
    async dispose() {
      live.delete(app);
      await app.context.close().catch(() => undefined);
      await rm(profileDir, { recursive: true, force: true });
    },
  };
  live.add(app);
  return app;
}

/** The browsers launched and not yet disposed, for `whatBrowsersSaid`. */
const live = new Set<AppBrowser>();

/** Wall-clock time of day with milliseconds, to set a page's error beside a test's steps. */
const clock = () => new Date().toISOString().slice(11, 23);

/**
 * The page log of every live browser: printed when a test fails (await-app-build.ts), so a
 * failing step shows what the page said before it, not only whatever a check at the test's end
 * would have.
 */
export function whatBrowsersSaid(): string {
  return [...live]
    .map((app) => `What the browser's pages said (${clock()} now):\n  ${app.pageLog.join('\n  ')}`)
    .join('\n');
}
