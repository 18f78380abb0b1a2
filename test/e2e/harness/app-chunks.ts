import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { DIST_DIR } from './paths';

/** The path of a chunk of the built app, by its name before the hash (`settings-screen`). */
export function builtChunk(name: string): string {
  const file = readdirSync(join(DIST_DIR, 'assets')).find(
    (f) => f.startsWith(`${name}-`) && /^[\w-]+\.js$/.test(f.slice(name.length + 1)),
  );
  if (!file) throw new Error(`no ${name} chunk in ${DIST_DIR}/assets`);
  return `/assets/${file}`;
}

/**
 * Takes `path` out of every cache of the page's origin (the service worker's precache): it then
 * comes from the network, where a test's route can refuse or hold it. Resolves with how many
 * copies were removed.
 */
export function dropFromCaches(page: Page, path: string): Promise<number> {
  return page.evaluate(async (dropped) => {
    let n = 0;
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      for (const request of await cache.keys())
        if (new URL(request.url).pathname === dropped && (await cache.delete(request))) n += 1;
    }
    return n;
  }, path);
}
