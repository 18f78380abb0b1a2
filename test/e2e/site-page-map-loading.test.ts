import type { Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { builtChunk, dropFromCaches } from './harness/app-chunks';
import { createSiteByCoordinates, visible } from './harness/field-actions';
import { signedInTabletOnFreshStack } from './harness/signed-in-tablet';

// A technician opens a site and reaches for New collection here while the small map still loads
// (a slow tablet): the button must not move when the map arrives, or the tap lands on the map.
describe('the site page while its map loads', () => {
  const tablet = signedInTabletOnFreshStack();

  it('keeps New collection here where it is when the map arrives', async () => {
    const page = tablet.app.page;
    const siteId = await createSiteByCoordinates(page, {
      code: '770001',
      name: 'Slow Map Marsh',
      lat: 38.57,
      lon: -121.47,
    });
    // The map's code out of the service worker's cache and held on the network: the page shows
    // "Loading map…" for as long as the test wants.
    const chunk = builtChunk('site-spot-map');
    expect(await dropFromCaches(page, chunk)).toBeGreaterThan(0);
    const held: Route[] = [];
    await tablet.app.context.route(`**${chunk}*`, (route) => {
      held.push(route);
    });
    try {
      await page.goto(`/sites/${siteId}`);
      const link = page.getByRole('link', { name: 'New collection here' });
      await visible(page.getByText('Loading map…'));
      await visible(link);
      const before = (await link.boundingBox())!;
      await expect.poll(() => held.length).toBeGreaterThan(0);
      for (const route of held) await route.continue();
      await visible(page.getByRole('region', { name: 'Map of 770001 Slow Map Marsh' }));
      const after = (await link.boundingBox())!;
      expect(Math.abs(after.y - before.y)).toBeLessThanOrEqual(1);
    } finally {
      await tablet.app.context.unroute(`**${chunk}*`);
    }
  });
});
