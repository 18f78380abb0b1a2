import type { ConsoleMessage, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAppBuilt } from './harness/build-app';
import { launchApp, type AppBrowser } from './harness/browser';
import { visible } from './harness/field-actions';
import { startStack, type Stack } from './harness/stack';

// A first visit on one bar of signal waits for every script the sign-in screen loads. The
// database library (Dexie), the photo uploader (tus) and the rest of what only a signed-in
// technician uses were in that first load (~70 KiB gzip of 203): a sign-in screen scored 79 by
// Lighthouse's mobile run, largest paint 3.4 s (issue 40). They now load after sign-in, or at
// once for a tablet that remembers who signed in (from its service worker's copy).
let stack: Stack;
let app: AppBrowser;

beforeAll(async () => {
  await ensureAppBuilt();
  stack = await startStack();
  // Opened at a file that runs no script, so the app's own first load is watched from its start.
  app = await launchApp(stack.appUrl, { path: '/favicon.svg' });
}, 240_000);

afterAll(async () => {
  await app?.dispose();
  await stack?.stop();
});

/** The scripts a page fetches (network or service worker) until `until` resolves, with their text. */
async function scriptsWhile(app: AppBrowser, until: () => Promise<unknown>) {
  const scripts = new Map<string, Promise<string>>();
  const onResponse = (response: Response) => {
    if (response.request().resourceType() === 'script')
      scripts.set(
        new URL(response.url()).pathname,
        response.text().catch(() => ''),
      );
  };
  app.page.on('response', onResponse);
  try {
    await until();
  } finally {
    app.page.off('response', onResponse);
  }
  return new Map(
    await Promise.all([...scripts].map(async ([path, text]) => [path, await text] as const)),
  );
}

describe("a fresh tablet's sign-in screen", () => {
  it('loads neither the database library nor the photo uploader before anyone signs in', async () => {
    const scripts = await scriptsWhile(app, async () => {
      await app.page.goto('/');
      await visible(app.page.getByRole('form', { name: 'Sign in' }));
    });
    expect(scripts.size).toBeGreaterThan(0);
    // Strings that survive minification: Dexie's error names, tus's protocol header.
    const withDexie = [...scripts].filter(([, text]) => text.includes('DatabaseClosedError'));
    const withTus = [...scripts].filter(([, text]) => text.includes('Tus-Resumable'));
    expect(withDexie.map(([path]) => path)).toEqual([]);
    expect(withTus.map(([path]) => path)).toEqual([]);
    expect(app.pageErrors).toEqual([]);
  });

  it("loads the session's schemas only, not the records' (zod builds each as it loads)", async () => {
    // The sign-in form needs the session's schemas; the records' (sites, collections, pools...)
    // were ~190 ms of a mid-range tablet's thread in one task while the form was on screen
    // (4x CPU, issue 40). A string of the pool schema's that survives minification.
    const scripts = await scriptsWhile(app, async () => {
      await app.page.goto('/');
      await visible(app.page.getByRole('form', { name: 'Sign in' }));
    });
    const withRecordSchemas = [...scripts].filter(([, text]) =>
      text.includes('primary_source_bit must be true'),
    );
    expect(withRecordSchemas.map(([path]) => path)).toEqual([]);
  });

  it('is given a security policy the browser takes whole, no source of it ignored', async () => {
    // Chromium drops a source it cannot parse with a console error, and with it what the source
    // was meant to allow: 'http://[::1]:*' (a tile server on this machine's IPv6 address) was
    // such a source, so tiles from there were refused while the policy seemed to allow them.
    const refused: string[] = [];
    const onConsole = (message: ConsoleMessage) => {
      if (message.type() === 'error' && /Content Security Policy/i.test(message.text()))
        refused.push(message.text());
    };
    app.page.on('console', onConsole);
    try {
      await app.page.reload();
      await visible(app.page.getByRole('form', { name: 'Sign in' }));
    } finally {
      app.page.off('console', onConsole);
    }
    expect(refused).toEqual([]);
  });

  it('loads the database library once signed in, for Home', async () => {
    const form = app.page.getByRole('form', { name: 'Sign in' });
    await form.getByLabel('Username').fill('demo-tech');
    await form.getByLabel('Password').fill(stack.password);
    const scripts = await scriptsWhile(app, async () => {
      await form.getByRole('button', { name: 'Sign in' }).click();
      await visible(app.page.getByRole('heading', { name: /^Hello,/ }), 30_000);
    });
    expect([...scripts.values()].some((text) => text.includes('DatabaseClosedError'))).toBe(true);
    expect(app.pageErrors).toEqual([]);
  });
});
