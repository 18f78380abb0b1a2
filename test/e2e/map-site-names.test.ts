import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { LANDSCAPE } from './harness/browser';
import { screenshot } from './harness/screenshot';
import { createSiteByCoordinates, navigate, visible } from './harness/field-actions';
import { markerCentres } from './harness/map-markers';
import { signedInTabletOnFreshStack } from './harness/signed-in-tablet';

/** The site markers on the map with the text of the tooltip each shows under the pointer. */
async function namedMarkers(page: Page): Promise<{ x: number; y: number; text: string }[]> {
  const named: { x: number; y: number; text: string }[] = [];
  for (const c of await markerCentres(page)) {
    await page.mouse.move(c.x, c.y);
    const tooltip = page.locator('.leaflet-tooltip');
    await visible(tooltip);
    named.push({ ...c, text: (await tooltip.textContent()) ?? '' });
    await page.mouse.move(1, 1);
    await expect.poll(() => tooltip.count()).toBe(0);
  }
  return named;
}

describe('site names on the map in Chromium', () => {
  const tablet = signedInTabletOnFreshStack();

  it('names a site on the map as it was typed, angle brackets and ampersand included', async () => {
    const page = tablet.app.page;
    // Names as technicians write them: a side of a ditch in brackets, an ampersand.
    const name = 'Ditch <north> & <b>pond</b>';
    // Beside the Zero Site (Elk Grove), so both are in the first view of the map.
    await createSiteByCoordinates(page, { code: '510101', name, lat: 38.452, lon: -121.338 });
    await navigate(page, 'Sites');
    const map = page.getByRole('region', { name: 'Map of sites' });
    await visible(map.locator('.leaflet-container'));
    await expect.poll(async () => (await markerCentres(page)).length).toBe(2);
    const names: string[] = [];
    let bold = 0;
    for (const c of await markerCentres(page)) {
      await page.mouse.move(c.x, c.y);
      const tooltip = page.locator('.leaflet-tooltip');
      await visible(tooltip);
      names.push((await tooltip.textContent()) ?? '');
      bold += await tooltip.locator('b').count();
      await page.mouse.move(1, 1);
      await expect.poll(() => tooltip.count()).toBe(0);
    }
    expect(names).toContain(`510101 ${name}`);
    // Nothing of a name is read as markup.
    expect(bold).toBe(0);
    expect(tablet.app.pageErrors).toEqual([]);
  });

  it('lets a tap on two sites at one spot choose between them; a lone site shows before it opens', async () => {
    const page = tablet.app.page;
    // Two traps on one post: identical coordinates, look-alike names.
    const spot = { lat: 38.4561, lon: -121.3457 };
    await createSiteByCoordinates(page, { code: '510202', name: 'Laguna trap A', ...spot });
    await createSiteByCoordinates(page, { code: '510203', name: 'Laguna trap B', ...spot });
    await navigate(page, 'Sites');
    const map = page.getByRole('region', { name: 'Map of sites' });
    await visible(map.locator('.leaflet-container'));
    // The Zero Site and the site of the test above as dots, the two at one spot as one group.
    await expect.poll(async () => (await markerCentres(page)).length).toBe(2);
    const group = map.getByRole('button', { name: '2 sites here: choose one' });
    await visible(group);
    await group.click();
    // Both are offered, the one underneath too; choosing it shows it, Open opens it.
    const choice = page.getByRole('list', { name: '2 sites here' });
    await visible(choice, 5_000);
    await expect
      .poll(() => choice.getByRole('button').allTextContents())
      .toEqual(['510202 Laguna trap A', '510203 Laguna trap B']);
    await screenshot(page, 'map-sites-at-one-spot');
    await choice.getByRole('button', { name: '510202 Laguna trap A' }).click();
    const preview = page.getByRole('region', { name: 'Site preview' });
    await visible(preview.getByText('Laguna trap A'));
    await preview.getByRole('button', { name: 'Open' }).click();
    await visible(page.getByRole('heading', { name: '510202 Laguna trap A' }));

    await navigate(page, 'Sites');
    await visible(map.locator('.leaflet-container'));
    await expect.poll(async () => (await markerCentres(page)).length).toBe(2);
    const lone = (await namedMarkers(page)).find((c) => c.text.startsWith('510101 '));
    await page.mouse.click(lone!.x, lone!.y);
    await visible(preview.getByText(/Ditch <north>/));
    expect(new URL(page.url()).pathname).toBe('/sites');
    await preview.getByRole('button', { name: 'Open' }).click();
    await visible(page.getByRole('heading', { name: /^510101 / }));
    expect(tablet.app.pageErrors).toEqual([]);
  });

  it('on a 390 px phone, takes a longitude typed without a minus key and asks before a far place', async () => {
    const page = tablet.app.page;
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await navigate(page, 'Sites');
      await page.getByRole('link', { name: 'New site' }).click();
      const form = page.getByRole('form', { name: 'Site' });
      await visible(form);
      await form.getByLabel('Site code').fill('510301');
      await form.getByLabel('Site name').fill('Laguna trap C');
      // A keypad with a comma for the decimal point and no minus key.
      await form.getByLabel('Latitude').click();
      await page.keyboard.type('38,4602');
      await form.getByLabel('Longitude').click();
      await page.keyboard.type('121,3391');
      await expect.poll(() => form.getByLabel('Latitude').inputValue()).toBe('38.4602');
      await expect.poll(() => form.getByLabel('Longitude').inputValue()).toBe('121.3391');
      await form.getByLabel('Coordinate precision').selectOption({ index: 1 });
      // Saved as typed, it would be in China: asked first.
      await form.getByRole('button', { name: 'Save site' }).click();
      const question = page.getByText(
        /This place is [\d,]+ km from your other sites\. Save it there\?/,
      );
      await visible(question);
      await screenshot(page, 'site-form-390-far-question');
      await form.getByRole('button', { name: 'Change the place' }).click();
      await form.getByRole('button', { name: 'Change sign of longitude' }).click();
      await expect.poll(() => form.getByLabel('Longitude').inputValue()).toBe('-121.3391');
      await expect.poll(() => question.count()).toBe(0);
      await form.getByLabel('Longitude').scrollIntoViewIfNeeded();
      await screenshot(page, 'site-form-390-sign-changed');
      await form.getByRole('button', { name: 'Save site' }).click();
      await visible(page.getByRole('heading', { name: '510301 Laguna trap C' }));
      expect(tablet.app.pageErrors).toEqual([]);
    } finally {
      await page.setViewportSize(LANDSCAPE);
    }
  });
});
