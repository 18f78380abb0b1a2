import type { BrowserContext, Page } from 'playwright-core';

/**
 * A tablet whose browser cannot load the site index worker's script (its file neither served nor
 * cached) in every page `context` opens from now on, until `healSiteIndexWorker`: what the
 * screens and the pull do without the index.
 */
export async function loseSiteIndexWorker(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const Real = window.Worker;
    window.Worker = class extends Real {
      constructor(url: string | URL, options?: WorkerOptions) {
        const healed = (window as { healIndex?: boolean }).healIndex === true;
        const index = options?.name === 'site-index' && !healed;
        // A file the server does not have: the worker's script fails to load.
        super(index ? '/assets/site-index.worker-gone.js' : url, options);
      }
    };
  });
}

/** The site index worker's script loads again in `page` (see loseSiteIndexWorker). */
export async function healSiteIndexWorker(page: Page): Promise<void> {
  await page.evaluate(() => {
    (window as { healIndex?: boolean }).healIndex = true;
  });
}
