import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAppBuilt } from './harness/build-app';
import { launchApp, LANDSCAPE, PORTRAIT, type AppBrowser, type Viewport } from './harness/browser';
import {
  createCollectionAtSite,
  createSiteByCoordinates,
  makePools,
  openPoolTestForm,
  signIn,
  visible,
} from './harness/field-actions';
import { screenshot } from './harness/screenshot';
import { startStack, type Stack } from './harness/stack';

type Cut = { select: string; option: string; needs: number; has: number };

/**
 * Options of the form's drop-downs whose label would be cut when chosen: each option is drawn
 * alone in a copy of its select at its natural width (same font, padding, border and arrow),
 * and that width is compared with the select's own.
 */
async function cutOptions(form: Locator): Promise<Cut[]> {
  return form.locator('select').evaluateAll((selects) =>
    (selects as HTMLSelectElement[]).flatMap((select) => {
      const label = select.labels?.[0]?.textContent ?? select.name;
      return [...select.options].flatMap((option) => {
        const probe = select.cloneNode(false) as HTMLSelectElement;
        probe.removeAttribute('id');
        probe.style.cssText = 'position:absolute;visibility:hidden;width:max-content;min-width:0';
        probe.append(new Option(option.text));
        select.parentElement!.append(probe);
        const needs = probe.getBoundingClientRect().width;
        probe.remove();
        const has = select.getBoundingClientRect().width;
        return needs > has + 0.5
          ? [{ select: label, option: option.text, needs: Math.ceil(needs), has: Math.floor(has) }]
          : [];
      });
    }),
  );
}

// Tablet trial at 1280x800: drop-downs cut their labels ("CO2 — CO2-baited lig…", "Demo Vector
// Control D…", the test target), so the technician could not read what was chosen.
// One stack and browser for both sizes: each size turns the same tablet (setViewportSize) and
// opens the forms again.
let stack: Stack;
let app: AppBrowser;
let collectionPath: string;

beforeAll(async () => {
  await ensureAppBuilt();
  stack = await startStack();
  app = await launchApp(stack.appUrl);
  await signIn(app.page, { username: 'demo-tech', password: stack.password });
  await createSiteByCoordinates(app.page, {
    code: '733001',
    name: 'Label Slough',
    lat: 38.62,
    lon: -121.52,
  });
  await createCollectionAtSite(app.page, [{ species: 'Cx tarsalis', sex: 'F-Mixed', count: 12 }]);
  await makePools(app.page);
  collectionPath = new URL(app.page.url()).pathname;
});

afterAll(async () => {
  await app?.dispose();
  await stack?.stop();
});

describe.each([
  ['landscape', LANDSCAPE],
  ['portrait', PORTRAIT],
] as [string, Viewport][])('drop-downs at %s size show whole labels', (size, viewport) => {
  beforeAll(async () => {
    await app.page.setViewportSize(viewport);
  });

  it('collection form: every trap type, trap problem, species and sex label fits its drop-down', async () => {
    const page = app.page;
    await page.goto(`${collectionPath}/edit`);
    const form = page.getByRole('form', { name: 'Collection' });
    await visible(form);
    const trap = form.getByLabel('Trap type');
    const co2 = await trap.locator('option', { hasText: /^CO2/ }).first().textContent();
    await trap.selectOption({ label: co2! });
    await screenshot(page, `select-labels-collection-${size}`);
    expect(await cutOptions(form)).toEqual([]);
  });

  it('site form: every coordinate precision label fits', async () => {
    const page = app.page;
    await page.goto('/sites/new');
    const form = page.getByRole('form', { name: 'Site' });
    await visible(form);
    await screenshot(page, `select-labels-site-${size}`);
    expect(await cutOptions(form)).toEqual([]);
  });

  it('pool test form: every method, target, result and testing agency label fits', async () => {
    const page = app.page;
    await page.goto(collectionPath);
    const form = await openPoolTestForm(page);
    await form.getByLabel('Test method').selectOption({ label: 'RT-PCR' });
    await form.getByLabel('Target').selectOption({ index: 1 });
    const agency = form.getByLabel('Testing agency');
    if ((await agency.inputValue()) === '') await agency.selectOption({ index: 1 });
    await screenshot(page, `select-labels-pool-test-${size}`);
    expect(await cutOptions(form)).toEqual([]);
  });
});
