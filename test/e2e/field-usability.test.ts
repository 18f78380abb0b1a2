import { mkdir } from 'node:fs/promises';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeViolations, seriousViolations } from './harness/axe';
import { ensureAppBuilt } from './harness/build-app';
import { launchApp, type AppBrowser, type Viewport } from './harness/browser';
import {
  createCollectionAtSite,
  createSiteByCoordinates,
  fillCollection,
  makePools,
  navigate,
  recordPoolTest,
  signIn,
  visible,
} from './harness/field-actions';
import { eventually } from './harness/local-db';
import { recordsApi } from './harness/records-api';
import { startStack, type Stack } from './harness/stack';
import { outbox } from './harness/sync-checks';

/**
 * The record screens a technician uses at a trap, on a phone held in one hand (390 px wide, and
 * 320 px, the narrowest phones), with the phone's text size at 200% (Android's font scale
 * enlarges text set in px too: emulated by doubling the root font size) and on a 1280x800
 * tablet: nothing of the screen's own content needs sideways scrolling, every control is a
 * target of at least 44x44 CSS px, and a chosen species or sex is read whole. On the same pass, Home,
 * Sites and the sync bar's states (a change parked; offline with one pending): the app bar and
 * the navigation never widen the page nor cover most of it, their labels are read whole, and the
 * root text follows the browser's own text-size setting.
 */

/** Where to save screenshots of each screen at each size (none unless set). */
const SHOTS = process.env.A11Y_SHOTS_DIR ?? null;

/**
 * `wholeChoices`: a chosen species and sex fit their drop-downs. Not at 390 px with 200% text:
 * "Cx tarsalis" at 36 px needs 240 px, and the screen's and the form's margins leave 188.
 */
type Size = { name: string; viewport: Viewport; bigText: boolean; wholeChoices: boolean };
const SIZES: Size[] = [
  { name: '390', viewport: { width: 390, height: 844 }, bigText: false, wholeChoices: true },
  {
    name: '390-text200',
    viewport: { width: 390, height: 844 },
    bigText: true,
    wholeChoices: false,
  },
  { name: '320', viewport: { width: 320, height: 568 }, bigText: false, wholeChoices: true },
  { name: '1280', viewport: { width: 1280, height: 800 }, bigText: false, wholeChoices: true },
  {
    name: '1280-text200',
    viewport: { width: 1280, height: 800 },
    bigText: true,
    wholeChoices: true,
  },
];

/** Screens opened for the app bar, its sync states and the navigation only. */
const SHELL_ONLY = ['home', 'sites', 'home-offline'];

/** What the screen's content (not the app's bar or navigation) draws past the right edge. */
async function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const main = document.querySelector('main')!;
    const scrolls = (el: Element) => ['auto', 'scroll'].includes(getComputedStyle(el).overflowX);
    const insideScroller = (el: Element) => {
      for (let p = el.parentElement; p && p !== main; p = p.parentElement)
        if (scrolls(p)) return true;
      return false;
    };
    return [...main.querySelectorAll<HTMLElement>('*')]
      .filter((el) => el.getBoundingClientRect().right > width + 0.5 && !insideScroller(el))
      .map((el) => `${el.tagName.toLowerCase()}.${el.className}: ${el.textContent?.slice(0, 30)}`)
      .slice(0, 5);
  });
}

/** Controls of the screen's content smaller than 44x44 (a checkbox counts with its label). */
async function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [
      ...document
        .querySelector('main')!
        .querySelectorAll<HTMLElement>('button, a, select, input:not([type=hidden]), textarea'),
    ].flatMap((el) => {
      const target = el.matches('[type=checkbox], [type=radio]') ? el.closest('label')! : el;
      const { width, height } = target.getBoundingClientRect();
      if (width === 0 || (width >= 44 && height >= 44)) return [];
      const name = el.getAttribute('aria-label') ?? target.textContent?.trim() ?? el.id;
      return [`${el.tagName.toLowerCase()} "${name}" ${Math.round(width)}x${Math.round(height)}`];
    }),
  );
}

/** Checkboxes drawn smaller than the form's largest one (squeezed by a long label). */
async function squeezedChecks(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const boxes = [...document.querySelectorAll<HTMLInputElement>('main input[type=checkbox]')];
    const side = (b: HTMLInputElement) => Math.min(b.offsetWidth, b.offsetHeight);
    const largest = Math.max(0, ...boxes.map(side));
    return boxes
      .filter((b) => side(b) < largest - 0.5)
      .map((b) => `${b.closest('label')?.textContent?.trim()}: ${side(b)} of ${largest}`);
  });
}

/**
 * The form's Save bar half-way down the form, where it sticks to the bottom of the screen: never
 * drawn under the navigation, and taking at most a third of the room between the app bar and the
 * navigation (the rest is for the fields being typed in).
 */
async function saveBarInTheWay(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const form = document.querySelector<HTMLElement>('main form');
    const bar = form?.querySelector<HTMLElement>('.form-actions');
    if (!form || !bar) return [];
    const formBox = form.getBoundingClientRect();
    window.scrollTo(0, scrollY + formBox.top + formBox.height / 2 - innerHeight / 2);
    const box = bar.getBoundingClientRect();
    const navTop = document.querySelector('nav')!.getBoundingClientRect().top;
    const headerBottom = document.querySelector('header')!.getBoundingClientRect().bottom;
    const problems: string[] = [];
    // Stuck: drawn at the bottom of the screen, not where it stands at the end of the form.
    const stuck = getComputedStyle(bar).position === 'sticky' && box.top < innerHeight;
    if (stuck && box.bottom > navTop + 1.5)
      problems.push(`Save bar ends at ${box.bottom}, under the navigation from ${navTop}`);
    const room = navTop - headerBottom;
    if (stuck && box.height > room / 3)
      problems.push(`Save bar ${Math.round(box.height)} px of ${Math.round(room)} px of room`);
    return problems;
  });
}

/**
 * The app's own bar and navigation: the page never scrolls sideways, the bar and navigation that
 * stay on screen leave at least half of its height to the screen, every navigation label is read
 * whole (all six in sight at normal text from 390 px on; a navigation that scrolls its items at
 * larger text or narrower is fine), and the bar's and navigation's controls are 44x44 or more.
 */
async function shellProblems(page: Page, size: Size): Promise<string[]> {
  return page.evaluate(
    (allNavInSight) => {
      const problems: string[] = [];
      const root = document.documentElement;
      const width = root.clientWidth;
      if (root.scrollWidth > width + 0.5) {
        const wide = [...document.querySelectorAll<HTMLElement>('header *, nav *')]
          .filter((el) => el.getBoundingClientRect().right > width + 0.5)
          .filter(
            (el) =>
              !el.closest('nav') || getComputedStyle(el.closest('nav')!).overflowX === 'visible',
          )
          .map((el) => `${el.tagName.toLowerCase()}.${el.className}`)
          .slice(0, 4);
        problems.push(
          `page ${root.scrollWidth} px wide on a ${width} px screen (${wide.join(', ')})`,
        );
      }
      const header = document.querySelector('header')!;
      const nav = document.querySelector('nav')!;
      const stays = (el: Element) => ['sticky', 'fixed'].includes(getComputedStyle(el).position);
      const kept =
        (stays(header) ? header.getBoundingClientRect().height : 0) +
        (stays(nav) ? nav.getBoundingClientRect().height : 0);
      if (kept > innerHeight / 2)
        problems.push(
          `app bar and navigation keep ${Math.round(kept)} of ${innerHeight} px on screen`,
        );
      const navBox = nav.getBoundingClientRect();
      for (const link of nav.querySelectorAll<HTMLElement>('a')) {
        const box = link.getBoundingClientRect();
        const range = document.createRange();
        range.selectNodeContents(link);
        const text = range.getBoundingClientRect();
        const name = link.textContent;
        if (text.left < box.left - 0.5 || text.right > box.right + 0.5)
          problems.push(
            `"${name}" ${Math.round(text.width)} px wide in a ${Math.round(box.width)} px link`,
          );
        if (
          allNavInSight &&
          (box.left < navBox.left - 0.5 || box.right > Math.min(navBox.right, width) + 0.5)
        )
          problems.push(
            `"${name}" drawn from ${Math.round(box.left)} to ${Math.round(box.right)} on a ${width} px screen`,
          );
      }
      for (const el of document.querySelectorAll<HTMLElement>('header button, header a, nav a')) {
        const { width: w, height: h } = el.getBoundingClientRect();
        if (w > 0 && (w < 44 || h < 44))
          problems.push(
            `${el.tagName.toLowerCase()} "${el.textContent}" ${Math.round(w)}x${Math.round(h)}`,
          );
      }
      return problems;
    },
    !size.bigText && size.viewport.width >= 390,
  );
}

/** Abundance rows' drop-downs whose chosen label is cut (drawn alone at its natural width). */
async function cutChoices(page: Page): Promise<string[]> {
  return page.locator('main .abundance select').evaluateAll((selects) =>
    (selects as HTMLSelectElement[]).flatMap((select) => {
      const probe = select.cloneNode(false) as HTMLSelectElement;
      probe.removeAttribute('id');
      probe.style.cssText = 'position:absolute;visibility:hidden;width:max-content;min-width:0';
      probe.append(new Option(select.selectedOptions[0]?.text ?? ''));
      select.parentElement!.append(probe);
      const needs = probe.getBoundingClientRect().width;
      probe.remove();
      const has = select.getBoundingClientRect().width;
      return needs > has + 0.5 ? [`${select.labels?.[0]?.textContent}: ${needs} > ${has}`] : [];
    }),
  );
}

/** The field is in sight: not under the bar at the top nor under the Save bar below. */
async function expectInSight(field: Locator) {
  const seen = await field.evaluate((el) => {
    const box = el.getBoundingClientRect();
    const top = document.querySelector('header')!.getBoundingClientRect().bottom;
    const bottom = document.querySelector('.form-actions')!.getBoundingClientRect().top;
    return { box: [box.top, box.bottom], free: [top, bottom] };
  });
  expect(seen.box[0], JSON.stringify(seen)).toBeGreaterThanOrEqual(seen.free[0]);
  expect(seen.box[1], JSON.stringify(seen)).toBeLessThanOrEqual(seen.free[1]);
}

describe('record screens on a phone, at 200% text and on a tablet', () => {
  let stack: Stack;
  let app: AppBrowser;
  let siteId: string;
  let pooled: string;
  let unpooled: string;

  beforeAll(async () => {
    await ensureAppBuilt();
    if (SHOTS) await mkdir(SHOTS, { recursive: true });
    stack = await startStack();
    app = await launchApp(stack.appUrl);
    const page = app.page;
    await signIn(page, { username: 'demo-tech', password: stack.password });
    siteId = await createSiteByCoordinates(page, {
      code: '733001',
      name: 'Label Slough',
      lat: 38.62,
      lon: -121.52,
    });
    // Look-alike collections at one site on one day: the first pooled and tested, the second not.
    const rows = [
      { species: 'Cx tarsalis', sex: 'F-Mixed', count: 120 },
      { species: 'Cx tarsalis', sex: 'Male', count: 3 },
    ];
    await createCollectionAtSite(page, rows);
    pooled = new URL(page.url()).pathname;
    await makePools(page);
    await recordPoolTest(page, 'Negative', 36.5);
    await page.goto(`/sites/${siteId}`);
    await createCollectionAtSite(page, rows);
    unpooled = new URL(page.url()).pathname;
    // A site made offline with a code another technician took meanwhile: parked by the server,
    // so the sync bar says what needs attention on every screen below (its longest state).
    await app.context.setOffline(true);
    await createSiteByCoordinates(page, {
      code: '733009',
      name: 'Clash Pond',
      lat: 38.6,
      lon: -121.5,
    });
    const api = await recordsApi(stack.recordsUrl, stack.password);
    const other = await api.createSite({
      code: '733009',
      name: 'Other Tech Pond',
      lat: 38.6,
      lon: -121.5,
    });
    expect(other.status).toBe(201);
    await app.context.setOffline(false);
    await eventually(
      () => outboxStates(page),
      (states) => states.join() === 'site:parked',
      { what: 'only the clashing site parked in the outbox' },
    );
  });

  const outboxStates = async (page: Page) =>
    (await outbox(page)).map((e) => `${e.entity}:${e.state}`).sort();

  afterAll(async () => {
    await app?.dispose();
    await stack?.stop();
  });

  /**
   * Opens each record screen, Home, Sites and Home offline at a size and hands each to `check`
   * with the problems found while opening it.
   */
  async function eachScreen(size: Size, check: (screen: string, early: string[]) => Promise<void>) {
    const page = app.page;
    // Each screen opens as a link tap opens it (the router follows history.pushState), not by
    // loading the app again: at every size the same screens were nine page loads, half this
    // file's CPU (51 -> 24 CPU-s of browser and servers for the same checks). Resolves after the
    // next frame, when the router has rendered the new screen or its loading state.
    const go = (path: string) =>
      page.evaluate(
        (p) =>
          new Promise<void>((resolve) => {
            history.pushState(null, '', p);
            requestAnimationFrame(() => resolve());
          }),
        path,
      );
    await page.setViewportSize(size.viewport);
    // The browser's own text size (Chrome's Settings > Font size): 32 px default text for 200%.
    const cdp = await app.context.newCDPSession(page);
    const browserTextSize = () =>
      cdp.send('Page.setFontSizes', { fontSizes: { standard: size.bigText ? 32 : 16 } });
    const screens: [string, () => Promise<void>][] = [
      [
        'new-collection',
        async () => {
          await go(`/collections/new?site=${siteId}`);
          // The same new collection at each size: the last size's typing is restored; start over.
          const discard = page.getByRole('button', { name: 'Discard draft' });
          await discard.click({ timeout: 1500 }).catch(() => undefined);
          await fillCollection(page.getByRole('form', { name: 'Collection' }), [
            { species: 'Cx tarsalis', sex: 'F-Mixed', count: 12 },
          ]);
        },
      ],
      ['edit-collection', () => go(`${pooled}/edit`)],
      ['collection-detail', () => go(pooled)],
      ['make-pools', () => go(`${unpooled}/pools`)],
      [
        'pool-edit',
        async () => {
          await go(pooled);
          // The first pool listed (synced by now: its link carries its number).
          await page
            .getByRole('list', { name: 'Pools' })
            .getByRole('link', { name: /^Edit pool/ })
            .first()
            .click();
        },
      ],
      [
        'pool-test',
        async () => {
          await go(pooled);
          await page.getByRole('link', { name: 'Add test result' }).first().click();
        },
      ],
      ['home', () => go('/')],
      ['sites', () => go('/sites')],
      [
        // Offline, a change pending beside the parked one: the sync bar's offline state.
        'home-offline',
        async () => {
          await app.context.setOffline(true);
          await createSiteByCoordinates(page, {
            code: `7331${SIZES.indexOf(size)}0`,
            name: `Offline Ditch ${size.name}`,
            lat: 38.61,
            lon: -121.51,
          });
          await navigate(page, 'Home');
        },
      ],
    ];
    try {
      for (const [screen, open] of screens) {
        // Set for each screen: a full-page screenshot (A11Y_SHOTS_DIR) puts it back to the default.
        await browserTextSize();
        // A screen that cannot be opened (a button under the app bar) is a problem of its own.
        const early: string[] = await open().then(
          () => [],
          (e: Error) => [`could not open: ${e.message.split('\n').slice(0, 3).join(' ')}`],
        );
        await visible(page.locator('main h1'));
        // The root text follows the browser's: 18 px at its default 16, 36 at 32.
        const rootSize = await page.evaluate(
          () => getComputedStyle(document.documentElement).fontSize,
        );
        if (rootSize !== (size.bigText ? '36px' : '18px'))
          early.push(
            `root font size ${rootSize} with the browser's text at ${size.bigText ? 32 : 16} px`,
          );
        const forced = size.bigText
          ? await page.addStyleTag({ content: ':root { font-size: 36px !important }' })
          : null;
        await page.evaluate(
          () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 100))),
        );
        if (SHOTS) {
          // The whole screen, and what is in sight at the top of it.
          await page.screenshot({ path: `${SHOTS}/${screen}-${size.name}.png`, fullPage: true });
          await page.screenshot({ path: `${SHOTS}/${screen}-${size.name}-top.png` });
        }
        await check(screen, early);
        // The next screen opens in the same page: its own root size is read as the app sets it.
        await forced?.evaluate((el) => el.parentNode?.removeChild(el));
      }
    } finally {
      await cdp.send('Page.setFontSizes', { fontSizes: { standard: 16 } });
      await cdp.detach();
      await app.context.setOffline(false);
    }
    // The offline change is sent; only the parked site is left for the next size.
    await eventually(
      () => outboxStates(page),
      (states) => states.join() === 'site:parked',
      { what: 'only the clashing site parked in the outbox' },
    );
  }

  // One pass over the screens per size, every check on each (a pass costs ~2 s of browser).
  it.each(SIZES)(
    'at $name nothing of a record screen, Home or Sites (nor the app bar, its sync states and the navigation) is cut or scrolls sideways, the bar leaves room for the screen, every control is at least 44x44 and in reach, and (on a phone) axe finds nothing serious',
    async (size) => {
      const found: Record<string, string[]> = {};
      await eachScreen(size, async (screen, early) => {
        const problems = [...early, ...(await shellProblems(app.page, size))];
        // Home and Sites are here for the app bar and navigation; their content (a map) is not.
        if (!SHELL_ONLY.includes(screen))
          problems.push(
            ...(await overflowing(app.page)),
            ...(size.wholeChoices ? await cutChoices(app.page) : []),
            ...(await smallTargets(app.page)),
            ...(await squeezedChecks(app.page)),
            ...(await saveBarInTheWay(app.page)),
          );
        if (size.viewport.width === 390) {
          const violations = await seriousViolations(app.page);
          if (violations.length) problems.push(describeViolations(violations));
        }
        if (problems.length) found[screen] = problems;
      });
      expect(found).toEqual({});
    },
  );

  it('on a phone: a new row, the next field, an Undo and the first problem after Save are in sight', async () => {
    const page = app.page;
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/collections/new');
    const form = page.getByRole('form', { name: 'Collection' });
    await visible(form);
    await form
      .getByRole('button', { name: 'Discard draft' })
      .click({ timeout: 2000 })
      .catch(() => {});
    await form.getByLabel('Trap type').selectOption({ index: 1 });
    await form.getByRole('button', { name: 'Add row' }).click();
    await form.getByLabel('Species (row 1)').selectOption({ label: 'Cx tarsalis' });
    await form.getByLabel('Count (row 1)').fill('12');
    await form.getByLabel('Count (row 1)').press('Enter');
    await page.waitForTimeout(300);
    expect(new URL(page.url()).pathname).toBe('/collections/new');
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).name)).toBe(
      'identified_by',
    );

    await expectInSight(form.getByLabel('Identified by'));
    // Rows added with Add row, above them: the new row, focused, is in sight (not under the
    // Save bar and the navigation), and so is the field Enter moves to after its count.
    for (const n of [2, 3, 4]) {
      await page.evaluate(() => window.scrollTo(0, 0));
      await form.getByRole('button', { name: 'Add row' }).click();
      const species = form.getByLabel(`Species (row ${n})`);
      await expect.poll(() => species.evaluate((el) => el === document.activeElement)).toBe(true);
      await expectInSight(species);
      await form.getByLabel(`Species (row ${n})`).selectOption({ index: n });
      await form.getByLabel(`Count (row ${n})`).fill(String(n));
      await form.getByLabel(`Count (row ${n})`).press('Enter');
      await expectInSight(page.locator(':focus'));
    }

    // A stray tap on Remove row 1, four rows up: its Undo is right there, not under the Save bar.
    await form.getByRole('button', { name: 'Remove row 1' }).scrollIntoViewIfNeeded();
    await form.getByRole('button', { name: 'Remove row 1' }).click();
    await expectInSight(form.getByRole('button', { name: 'Undo' }));
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/row-removed-390.png` });
    await form.getByRole('button', { name: 'Undo' }).click();
    expect(await form.getByLabel('Count (row 1)').inputValue()).toBe('12');

    await form.getByRole('button', { name: 'Save collection' }).click();
    const search = form.getByLabel('Find a site');
    await expect.poll(() => search.evaluate((el) => el === document.activeElement)).toBe(true);
    await expectInSight(search);
    expect(await form.getByLabel('Count (row 1)').inputValue()).toBe('12');
  });
});
