import type { Page } from 'playwright-core';
import {
  createCollectionAtSite,
  createSiteByMap,
  makePools,
  recordPoolTest,
} from './field-actions';

/** One abundance row that the pool proposal splits into two pools of 50: equal twins. */
const TWIN_ROWS = [{ species: 'Cx tarsalis', sex: 'F-Mixed', count: 100 }];

/** Creates queued by `queueLookAlikes`: 1 site, 2 collections, 4 pools, 2 tests. */
export const LOOK_ALIKE_ENTRIES = 9;

/**
 * Records that look alike on purpose (what a reconciliation by a few fields confuses): at one new
 * site, two collections on the same day with the same trap and counts, each made into two equal
 * pools (100 Cx tarsalis → 50 + 50), and two same-day tests of one pool with the same method,
 * target and result. Typed in the app as a technician does; run it offline to queue them all.
 * Returns the site's local id.
 */
export async function queueLookAlikes(page: Page, site: { code: string; name: string }) {
  const siteLocalId = await createSiteByMap(page, site);
  await createCollectionAtSite(page, TWIN_ROWS);
  await makePools(page);
  await recordPoolTest(page, 'Negative', 36.5);
  await recordPoolTest(page, 'Negative', 36.5);
  await page.goto(`/sites/${siteLocalId}`);
  await createCollectionAtSite(page, TWIN_ROWS);
  await makePools(page);
  return siteLocalId;
}
