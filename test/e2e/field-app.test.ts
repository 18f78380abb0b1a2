import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeViolations, seriousViolations, type AxeViolation } from './harness/axe';
import { ensureAppBuilt } from './harness/build-app';
import { LANDSCAPE, launchApp, PORTRAIT, type AppBrowser } from './harness/browser';
import {
  createCollectionAtSite,
  createSiteByMap,
  makePools,
  navigate,
  recordPoolTest,
  signIn,
  visible,
} from './harness/field-actions';
import { recordsApi } from './harness/records-api';
import { screenshot } from './harness/screenshot';
import { startStack, type Stack } from './harness/stack';

// One technician's morning on a tablet, through the real app, BFF and records service.
describe('field app in Chromium', () => {
  let stack: Stack;
  let app: AppBrowser;
  const axeByScreen = new Map<string, AxeViolation[]>();
  let collectionPath = '';

  /** Accessibility check and screenshots (landscape and portrait) of the screen on show. */
  async function inspect(name: string) {
    const page = app.page;
    axeByScreen.set(name, await seriousViolations(page));
    await screenshot(page, `field-${name}-1280x800`);
    await page.setViewportSize(PORTRAIT);
    await screenshot(page, `field-${name}-800x1280`);
    await page.setViewportSize(LANDSCAPE);
  }

  beforeAll(async () => {
    await ensureAppBuilt();
    stack = await startStack();
    app = await launchApp(stack.appUrl);
  });

  afterAll(async () => {
    await app?.dispose();
    await stack?.stop();
  });

  it('signs the technician in from the sign-in screen', async () => {
    await visible(app.page.getByRole('form', { name: 'Sign in' }));
    await inspect('sign-in');
    await signIn(app.page, { username: 'demo-tech', password: stack.password });
    await expect(app.page.getByRole('heading', { name: /^Hello,/ }).textContent()).resolves.toMatch(
      /Sam/,
    );
    await inspect('home');
  });

  it('creates a site by tapping the map, though no map tiles can load', async () => {
    await navigate(app.page, 'Sites');
    await visible(app.page.getByRole('heading', { name: 'Sites' }));
    await visible(
      app.page.getByRole('region', { name: 'Map of sites' }).locator('.leaflet-container'),
    );
    await inspect('sites');
    await app.page.getByRole('link', { name: 'New site' }).click();
    await visible(app.page.getByRole('form', { name: 'Site' }));
    await inspect('new-site');
    await app.page.goBack();
    await createSiteByMap(app.page, { code: '731001', name: 'Dry Creek Outfall' });
    const form = app.page.getByRole('heading', { name: '731001 Dry Creek Outfall' });
    await visible(form);
  });

  it('records a collection at the new site with three abundance rows', async () => {
    const rows = [
      { species: 'Cx tarsalis', sex: 'F-Mixed', count: 57 },
      { species: 'Cx pipiens', sex: 'F-Mixed', count: 12 },
      { species: 'Cs inornata', sex: 'Male', count: 3 },
    ];
    await app.page.getByRole('link', { name: 'New collection here' }).click();
    await visible(app.page.getByRole('form', { name: 'Collection' }));
    await inspect('new-collection');
    await app.page.goBack();
    await createCollectionAtSite(app.page, rows, 'Windy night');
    collectionPath = new URL(app.page.url()).pathname;
    const table = app.page.getByRole('table');
    for (const r of rows) {
      await visible(
        table.getByRole('row', { name: new RegExp(`${r.species}\\s+${r.sex}\\s+${r.count}`) }),
      );
    }
    await expect(table.getByRole('row', { name: /Total\s+72/ }).count()).resolves.toBe(1);
    await inspect('collection-detail');
  });

  it('makes pools from the abundance rows and records a pool test', async () => {
    await makePools(app.page);
    const pools = app.page.getByRole('list', { name: 'Pools' });
    // 57 Cx tarsalis make two pools (a full 50 and the 7 left); 12 Cx pipiens and 3 males one each.
    await expect
      .poll(() =>
        pools
          .getByRole('listitem')
          .filter({ has: app.page.getByRole('link', { name: 'Add test result' }) })
          .count(),
      )
      .toBe(4);
    await pools.getByRole('link', { name: 'Add test result' }).first().click();
    await visible(app.page.getByRole('form', { name: 'Pool test' }));
    await inspect('pool-test');
    await app.page.goBack();
    await recordPoolTest(app.page, 'Negative', 36.5);
    await visible(app.page.getByText(/by RT-PCR: Negative \(Ct 36\.5\)/));
  });

  it('shows the settings screen', async () => {
    await navigate(app.page, 'Settings');
    await visible(app.page.getByRole('button', { name: 'Sign out' }));
    await inspect('settings');
  });

  it('everything reached the records service once online', async () => {
    const api = await recordsApi(stack.recordsUrl, stack.password);
    await expect.poll(async () => (await api.poolTests()).rows.length, { timeout: 30_000 }).toBe(1);
    const [site] = (await api.sites('query[code]=731001')).rows;
    expect(site).toMatchObject({ code: '731001', name: 'Dry Creek Outfall' });
    const collections = (await api.collections(`query[site]=${site.id}`)).rows;
    expect(collections).toHaveLength(1);
    const pools = (await api.pools(`query[collection]=${collections[0].id}`)).rows;
    expect(pools.map((p) => Number(p.num_count)).sort((a, b) => a - b)).toEqual([3, 7, 12, 50]);
  });

  it('after going offline and reloading, shows all of it, served by the service worker', async () => {
    const page = app.page;
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await app.context.setOffline(true);
    await page.goto(collectionPath);
    await visible(page.getByRole('heading', { name: /^Collection / }));
    const table = page.getByRole('table');
    await visible(table.getByRole('row', { name: /Cx tarsalis\s+F-Mixed\s+57/ }));
    await visible(table.getByRole('row', { name: /Cs inornata\s+Male\s+3/ }));
    await visible(page.getByText(/by RT-PCR: Negative \(Ct 36\.5\)/));
    expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    await navigate(page, 'Sites');
    await visible(page.getByRole('list', { name: 'Sites' }).getByText('Dry Creek Outfall'));
    await app.context.setOffline(false);
  });

  it('has no serious or critical accessibility violations on any main screen', () => {
    expect([...axeByScreen.keys()].sort()).toEqual(
      [
        'collection-detail',
        'home',
        'new-collection',
        'new-site',
        'pool-test',
        'settings',
        'sign-in',
        'sites',
      ].sort(),
    );
    const found = [...axeByScreen]
      .filter(([, v]) => v.length > 0)
      .map(([screen, v]) => `${screen}:\n${describeViolations(v)}`);
    expect(found.join('\n\n')).toBe('');
  });
});
