/**
 * The field map at district scale (issue 11), in real Chromium with the CPU throttled 4x (a
 * mid-range tablet) at 1280x800, against the real BFF and records service holding 20,000 sites,
 * then 100,000 (reported, no target):
 *
 * - the first pull: from tapping "Sign in" to every site stored on the tablet (IndexedDB count),
 *   and its floor in the same run (pull-floor.ts: the same sites fetched, parsed and put into an
 *   IndexedDB store shaped as the app's, and nothing else);
 * - the app: the longest task while opening the Sites screen (map and list), and while panning
 *   and zooming its map; the time from typing a site's name in search to that site listed;
 *   New site and New collection opened; New site kept open while a sync brings RENAMED sites the
 *   office renamed (MAP_PROFILE=file.cpuprofile writes the page's CPU profile of that step);
 *   MAP_TRACE=prefix writes a performance trace of the first pull, of opening Sites and of
 *   panning (prefix-<size>-pull.json, -open.json, -pan.json: open them in DevTools' Performance
 *   panel) and prints how busy each thread was during the pull and the longest tasks of the
 *   open and the pan taken apart (page-trace.ts); MAP_PULL_REQUESTS=1 prints the first pull's
 *   requests (the session, the lookups, each page of sites), when each was asked for and when
 *   its answer had come, in ms after the tap on Sign in: where the head and the tail of the pull
 *   go, read off the page's resource timing, with no tracing to slow it;
 * - a naive page: the same sites drawn with one Leaflet circleMarker each (Leaflet's default
 *   renderer, a tooltip each, as a first attempt would), served by this bench with Leaflet from
 *   node_modules; the same two figures and the ratio app / naive (goal ≤ 0.1).
 *
 * Long tasks are the page's own PerformanceObserver('longtask') entries; a measurement ends once
 * no long task has been seen for two seconds. Sites are grown by bulk SQL (grow-sites.ts).
 * `npm run bench -- map-scale`; MAP_SCALE_SIZES=20000 to skip the 100,000 run; MAP_SCALE_QUICK=1
 * measures the pull, the open and the pan alone, without the naive page (while profiling).
 * Prints figures, never asserts a time.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { refreshStatistics } from '../../src/server/db/refresh-statistics';
import { ensureAppBuilt } from '../e2e/harness/build-app';
import { launchApp, type AppBrowser } from '../e2e/harness/browser';
import { ROOT } from '../e2e/harness/paths';
import { startStack, type Stack } from '../e2e/harness/stack';
import { growSites } from './grow-sites';
import { startTrace } from './page-trace';
import { measurePullFloor } from './pull-floor';
import type { BenchRow } from './run';

const SIZES = (process.env.MAP_SCALE_SIZES ?? '20000,100000').split(',').map(Number);
const QUICK = process.env.MAP_SCALE_QUICK === '1';
const TRACE = process.env.MAP_TRACE;
const PULL_REQUESTS = process.env.MAP_PULL_REQUESTS === '1';
/**
 * MAP_PAN_REPEAT=N: the pan and zoom measured N times more after the first (the view put back
 * between rounds), each round's longest task printed. One round's figure is a few frames, and
 * varies from run to run by more than most changes to them (0 to 84 ms in six runs of one
 * commit at 20,000 sites): compare changes on the rounds' spread, not on one run.
 */
const PAN_REPEAT = Number(process.env.MAP_PAN_REPEAT ?? 0);
/**
 * Chromium's CPU throttling (the goals are set at 4x). MAP_SCALE_CPU=1 measures without it: on
 * Linux the throttle is a signal every 200 µs whose handler busy-waits three times the wall time
 * since the last one (Blink's ThreadCPUThrottler), so on a machine of few cores, where the page's
 * thread waits for the workers' and the browser's, the same code can take 50 times as long as
 * unthrottled, not 4 (the tile layer's onAdd: 4 ms at 1x; 18-24 ms or 184-208 ms at 4x, on a
 * 2-core VM). A figure far above 4 times its unthrottled one is that wait, not the app's work.
 * The wait is paid idle too: a page doing nothing at 4x used 3.07 CPU-s of its main thread in 4 s
 * (0 at 1x; Chromium 156, this 2-core VM), so on two cores the servers, IndexedDB's backend and
 * the app's workers share what is left of them during the pull.
 */
const CPU_SLOWDOWN = Number(process.env.MAP_SCALE_CPU ?? 4);
/**
 * How often the bench looks for the pull's last site. A look is one key in the `serverId` index
 * (IndexedDB's backend, the pull's bottleneck, does next to nothing for it), so the pull's figure
 * carries at most this much more than the pull. Counting the stored rows instead cost the backend
 * 2.5 s over one pull polled every 250 ms, so that count had to be polled every second, and the
 * figure carried up to a second more than the pull.
 */
const POLL_MS = 50;
/** A measurement ends after this long without a long task. */
const QUIET_MS = 2_000;
/** Patience for one step at 100,000 sites (never a limit on a figure: the bench fails instead). */
const STEP_LIMIT_MS = 20 * 60_000;

/** Records every long task of the page from its start (installed before any script runs). */
const LONGTASK_OBSERVER = `
  window.__longtasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longtasks.push([e.startTime, e.duration]);
  }).observe({ type: 'longtask', buffered: true });
`;

type Tasks = { longest: number; total: number };

/** The Sites screen's map (its region's accessible name). */
const APP_MAP = '[aria-label="Map of sites"]';

async function throttle(context: BrowserContext, page: Page): Promise<void> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
}

const pageNow = (page: Page) => page.evaluate(() => performance.now());

/**
 * Waits until the page has gone QUIET_MS without a long task, then returns the long tasks that
 * started at or after `since` (page clock, ms).
 */
async function tasksUntilQuiet(page: Page, since: number): Promise<Tasks> {
  const started = Date.now();
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const { now, tasks } = await page.evaluate((from) => {
      const all = (window as unknown as { __longtasks: [number, number][] }).__longtasks;
      return { now: performance.now(), tasks: all.filter(([start]) => start >= from) };
    }, since);
    const lastEnd = Math.max(since, ...tasks.map(([start, duration]) => start + duration));
    if (now - lastEnd >= QUIET_MS)
      return {
        longest: Math.max(0, ...tasks.map(([, duration]) => duration)),
        total: tasks.reduce((sum, [, duration]) => sum + duration, 0),
      };
    if (Date.now() - started > STEP_LIMIT_MS) throw new Error('the page never became quiet');
  }
}

/**
 * What the map shows, as text: the map pane's offset, the zoom proxy's transform (scale and
 * centre), and where the first markers and paths are drawn. A gesture that leaves it unchanged
 * did not move the map, and a figure measured over it would be no figure.
 */
function viewOf(page: Page, mapSelector: string): Promise<string> {
  // No named functions inside: tsx would wrap them in a helper the page does not have.
  return page
    .locator(mapSelector)
    .first()
    .evaluate((map) =>
      JSON.stringify([
        (map.querySelector('.leaflet-map-pane') as HTMLElement | null)?.style.cssText,
        (map.querySelector('.leaflet-proxy') as HTMLElement | null)?.style.cssText,
        [...map.querySelectorAll<HTMLElement>('.leaflet-marker-icon')]
          .slice(0, 20)
          .map((m) => m.style.cssText),
        [...map.querySelectorAll('path')].slice(0, 20).map((p) => p.getAttribute('d')),
      ]),
    );
}

/** Drags the map three times and zooms in twice and out once by wheel, as a technician looks around. */
async function panAndZoom(page: Page, mapSelector: string): Promise<Tasks> {
  const box = await page.locator(mapSelector).first().boundingBox();
  if (!box) throw new Error(`no ${mapSelector} on the page`);
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  // Read once before the measurement starts: the first look compiles the bench's own script in
  // the page, a long task of ~100 ms at 4x throttling that is none of the app's.
  await viewOf(page, mapSelector);
  const since = await pageNow(page);
  const mustMove = async (gesture: () => Promise<void>, what: string) => {
    const before = await viewOf(page, mapSelector);
    await gesture();
    if ((await viewOf(page, mapSelector)) === before)
      throw new Error(`${what} left the map as it was`);
  };
  for (const [dx, dy] of [
    [200, 80],
    [-260, -40],
    [60, -120],
  ]) {
    await mustMove(async () => {
      await page.mouse.move(x, y);
      await page.mouse.down();
      await page.mouse.move(x + dx, y + dy, { steps: 8 });
      await page.mouse.up();
    }, 'a drag');
  }
  for (const delta of [-240, -240, 240]) {
    await mustMove(async () => {
      await page.mouse.move(x, y);
      await page.mouse.wheel(0, delta);
      await page.waitForTimeout(400);
    }, 'a wheel');
  }
  return tasksUntilQuiet(page, since);
}

/** MAP_PAN_REPEAT: `rounds` more pans and zooms, each from the view the first one started at. */
async function repeatPans(page: Page, mapSelector: string, rounds: number): Promise<string> {
  const box = await page.locator(mapSelector).first().boundingBox();
  if (!box) throw new Error(`no ${mapSelector} on the page`);
  const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
  const longest: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    // A round drags by (0, -80) in all and zooms in by one step: undone, unmeasured.
    await page.mouse.move(x, y);
    await page.mouse.wheel(0, 240);
    await page.waitForTimeout(400);
    await page.mouse.down();
    await page.mouse.move(x, y + 80, { steps: 4 });
    await page.mouse.up();
    await tasksUntilQuiet(page, await pageNow(page));
    longest.push((await panAndZoom(page, mapSelector)).longest);
  }
  const over = longest.filter((ms) => ms > 50).length;
  const sorted = [...longest].sort((a, b) => a - b);
  return `longest task of each round (ms): ${longest.join(', ')}; over 50 ms in ${over} of ${rounds}; median ${sorted[Math.floor(rounds / 2)]}`;
}

/**
 * Reads the signed-in user's `sites` store in the page: whether the site with server id `last`
 * is stored (`has`), or how many sites are (`count`). Zero/false before the database exists.
 */
function readSites(page: Page, dbName: string, ask: { has: number } | 'count'): Promise<number> {
  return page.evaluate(
    ({ name, ask }) =>
      new Promise<number>((resolve) => {
        const open = indexedDB.open(name);
        open.onerror = () => resolve(0);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('sites')) {
            db.close();
            resolve(0);
            return;
          }
          const store = db.transaction('sites').objectStore('sites');
          const read = ask === 'count' ? store.count() : store.index('serverId').count(ask.has);
          read.onsuccess = () => {
            db.close();
            resolve(read.result);
          };
          read.onerror = () => {
            db.close();
            resolve(0);
          };
        };
      }),
    { name: dbName, ask },
  );
}

/**
 * Waits until every one of `expected` sites is stored: the pull stores its batches in id order,
 * so it looks for the site with the largest id (`lastId`), then counts them all once to be sure.
 */
async function waitForSites(
  page: Page,
  expected: number,
  lastId: number,
  onLook: () => Promise<void>,
): Promise<void> {
  const started = Date.now();
  const db = 'trapline-a1-demo-tech';
  for (;;) {
    if ((await readSites(page, db, { has: lastId })) > 0) {
      const stored = await readSites(page, db, 'count');
      if (stored >= expected) return;
    }
    await onLook();
    if (Date.now() - started > STEP_LIMIT_MS) throw new Error('the pull never ended');
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

type AppFigures = {
  pullMs: number;
  /**
   * From the tap on Sign in to the first page of sites asked for (the page's resource timing):
   * the session, then the code and the drain a pull waits on. Counted apart from the pull's
   * total, which on a loaded machine varies by more than this whole head.
   */
  pullHeadMs: number | null;
  progressSeen: boolean;
  /** Long tasks from tapping "Sign in" until the page is quiet after the pull. */
  pull: Tasks;
  open: Tasks;
  /** From the tap on Sites to its list counting every site and its map drawing them. */
  openShownMs: number;
  /** The same after the app started again (the next morning's first opening), then panned. */
  reopenShownMs: number;
  pan: Tasks;
  search: { ms: number; tasks: Tasks };
  /** From tapping "New site" on Sites to its form showing a proposed code, and the long tasks. */
  newSite: { ms: number; tasks: Tasks };
  /** From tapping "New collection" in the navigation to its site picker listing sites. */
  newCollection: { ms: number; tasks: Tasks };
  /** New site open while a sync brings changed sites: from Sync now until the form checks them. */
  sitesChanged: { ms: number; tasks: Tasks };
};

/** The figures a quick run (MAP_SCALE_QUICK) measures: the pull, opening Sites and panning. */
type QuickFigures = Pick<
  AppFigures,
  | 'pullMs'
  | 'pullHeadMs'
  | 'progressSeen'
  | 'pull'
  | 'open'
  | 'openShownMs'
  | 'reopenShownMs'
  | 'pan'
>;

/**
 * Types part of a site's name into Sites' search, as a technician looking for one site would,
 * and times it until that site is listed (the search runs in the site index worker). The name
 * is one site's alone at 20,000 and at 100,000 sites.
 */
async function searchForSite(page: Page): Promise<{ ms: number; tasks: Tasks }> {
  return timed(page, async () => {
    await page.locator('#site-search').fill('Scale site 19999');
    await shown(page, 'ul.list[aria-label="Sites"] a', 'Scale site 19999');
  });
}

/** Run in the page: whether an element matching `selector` has `text` in its text. */
const hasText = ([selector, text]: readonly [string, string]) =>
  [...document.querySelectorAll(selector)].some((e) => e.textContent?.includes(text));

/**
 * Waits until an element matching `selector` has `text` in its text, by a plain DOM query polled
 * every 100 ms. Playwright's role and text engines run in the page's own thread and walk the page:
 * at 4x throttling one look at 20,000 sites' screens was itself a long task of 60-90 ms, which
 * the figures here would count against the app.
 */
async function shown(page: Page, selector: string, text: string): Promise<void> {
  await page.waitForFunction(hasText, [selector, text] as const, {
    polling: 100,
    timeout: STEP_LIMIT_MS,
  });
}

/**
 * Taps "New site" on the Sites screen and times it until the form shows with a proposed code
 * (the form checks a new code against every site on the tablet and proposes the next one).
 */
async function openNewSite(page: Page): Promise<{ ms: number; tasks: Tasks }> {
  return timed(page, async () => {
    await page.locator('a[href="/sites/new"]').first().click();
    // Shown with a proposed code (a plain DOM query: see `shown`).
    await page.waitForFunction(
      () =>
        document.querySelector<HTMLInputElement>('form[aria-label="Site"] input[name="code"]')
          ?.value,
      undefined,
      { polling: 100, timeout: STEP_LIMIT_MS },
    );
  });
}

/** How many sites the office renames while New site is open (sitesChangedUnderNewSite). */
const RENAMED = 200;

/**
 * With New site open, the office renames RENAMED sites and the technician taps Sync now: the pull
 * stores them and the form must check a new code against the sites as they now are. Times it
 * from the tap until the form, asked to save a renamed site's code, names that site by its new
 * name, and the long tasks until the page is quiet: every change of the sites reaches an open
 * form (a drain's acknowledgements too), and the form must not freeze the tablet taking them.
 */
async function sitesChangedUnderNewSite(
  page: Page,
  stack: Stack,
): Promise<{ ms: number; tasks: Tasks }> {
  // Named anew on each run (the 100,000-site run renames the same sites again).
  const mark = `renamed ${Date.now()}`;
  await stack.db.query(
    `update site set name = regexp_replace(name, ' \\(renamed .*$', '') || ' (' || $2 || ')',
            updated = now()
      where agency = 1 and code between '100001' and $1`,
    [String(100_000 + RENAMED), mark],
  );
  // What is read and tapped while waiting goes through plain DOM queries (`named`, `save`).
  const code = page.locator('form[aria-label="Site"] input[name="code"]');
  const cdp = process.env.MAP_PROFILE ? await page.context().newCDPSession(page) : null;
  if (cdp) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.start');
  }
  const result = await timed(page, async () => {
    await page.locator('[aria-label="Sync status"] button:has-text("Sync now")').click();
    await code.fill('100001');
    const expected = `Site code 100001 is already used by 'Scale site 1 (${mark})'`;
    // Read and tapped with plain DOM queries: Playwright's text and role engines walk the whole
    // page in the page's own thread, and at 4x throttling one such look was itself an 89 ms task.
    const named = () => page.evaluate(hasText, ['.field-error', expected] as const);
    // A DOM click: Playwright's checks that the button is visible, enabled and hit walk the page too.
    const save = () =>
      page.evaluate(() =>
        document
          .querySelector<HTMLButtonElement>('form[aria-label="Site"] button[type="submit"]')
          ?.click(),
      );
    const started = Date.now();
    // The form checks on Save: asked again until the pull and the index have brought the name.
    while (!(await named())) {
      if (Date.now() - started > STEP_LIMIT_MS)
        throw new Error('the renamed site never reached the form');
      await save();
      await page.waitForTimeout(250);
    }
  });
  if (cdp) {
    const { profile } = await cdp.send('Profiler.stop');
    await writeFile(process.env.MAP_PROFILE!, JSON.stringify(profile));
  }
  return result;
}

/**
 * Taps "New collection" in the main navigation and times it until its site picker lists sites
 * to choose from (the picker offers every site on the tablet, nearest or by code).
 */
async function openNewCollection(page: Page): Promise<{ ms: number; tasks: Tasks }> {
  return timed(page, async () => {
    await page.locator('nav[aria-label="Main"] a[href="/collections/new"]').click();
    await shown(page, 'ul[aria-label="Sites to choose from"] button', 'Scale site');
  });
}

/**
 * How long `step` (a tap or typing, and the wait for what it shows) takes, and the long tasks
 * from its start until the page is quiet.
 */
async function timed(page: Page, step: () => Promise<void>): Promise<{ ms: number; tasks: Tasks }> {
  const since = await pageNow(page);
  const started = Date.now();
  await step();
  const ms = Date.now() - started;
  return { ms, tasks: await tasksUntilQuiet(page, since) };
}

/**
 * The API requests of the first pull from the page's resource timing: when each was asked for and
 * when its answer had come, in ms after `since` (the tap on Sign in), and when the bench saw
 * every site stored (`pullMs`). The app's chunks are left out: the waterfall of data is the point.
 */
async function pullRequests(page: Page, since: number, pullMs: number): Promise<string> {
  const entries = await page.evaluate(() =>
    performance.getEntriesByType('resource').map((e) => ({
      name: e.name,
      start: e.startTime,
      end: (e as PerformanceResourceTiming).responseEnd,
    })),
  );
  const lines = entries
    .filter((e) => e.start >= since && new URL(e.name).pathname.startsWith('/api/'))
    .map((e) => {
      const { pathname, search } = new URL(e.name);
      const at = (ms: number) => String(Math.round(ms - since)).padStart(7);
      return `${at(e.start)} ${at(e.end)}  ${pathname}${search}`;
    });
  return `  the first pull's requests (asked, answered; ms after the tap on Sign in):\n${lines
    .map((l) => `  ${l}\n`)
    .join('')}  every site stored at ${pullMs} ms (the bench's look)\n`;
}

/** Runs `step` under a performance trace when MAP_TRACE is set, and prints the trace's summary. */
async function traced<T>(page: Page, name: string, step: () => Promise<T>): Promise<T> {
  if (!TRACE) return step();
  const trace = await startTrace(page);
  const result = await step();
  const summary = await trace.stop(`${TRACE}-${name}.json`);
  process.stderr.write(`  trace ${name}: ${summary}\n`);
  return result;
}

async function measureApp(
  stack: Stack,
  expected: number,
  /** The largest id of the agency's sites: the last one a pull stores. */
  lastId: number,
): Promise<Partial<AppFigures> & QuickFigures> {
  const app: AppBrowser = await launchApp(stack.appUrl);
  try {
    const { page, context } = app;
    await context.addInitScript(LONGTASK_OBSERVER);
    await page.reload();
    await throttle(context, page);
    const form = page.getByRole('form', { name: 'Sign in' });
    await form.waitFor({ timeout: 60_000 });
    await form.getByLabel('Username').fill('demo-tech');
    await form.getByLabel('Password').fill(stack.password);
    const started = Date.now();
    const pullSince = await pageNow(page);
    const pullTrace = TRACE ? await startTrace(page) : null;
    await form.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: /^Hello,/ }).waitFor({ timeout: 120_000 });
    let progressSeen = false;
    let lookedAt = 0;
    await waitForSites(page, expected, lastId, async () => {
      // Looked for once a second, not at each look: Playwright's text engine walks the page.
      // Once every ten looks missed it in 2 of 8 runs of a 15 s pull, likely because a look (an
      // IndexedDB count) waits behind the pull's writes and ten of them can outlast the pull.
      if (progressSeen || Date.now() - lookedAt < 1_000) return;
      lookedAt = Date.now();
      progressSeen = (await page.getByText(/^Downloading sites [\d,]+ of [\d,]+$/).count()) > 0;
    });
    const pullMs = Date.now() - started;
    if (pullTrace) {
      const threads = await pullTrace.stopThreads(`${TRACE}-${expected}-pull.json`);
      process.stderr.write(`  trace ${expected}-pull, threads over ${pullMs} ms:\n${threads}\n`);
    }
    const pull = await tasksUntilQuiet(page, pullSince);
    const firstPageAt = await page.evaluate(
      () =>
        performance
          .getEntriesByType('resource')
          .find((e) => /\/api\/v1\/site\?/.test(e.name) && /[?&]page=1(&|$)/.test(e.name))
          ?.startTime ?? null,
    );
    const pullHeadMs = firstPageAt === null ? null : firstPageAt - pullSince;
    if (PULL_REQUESTS) process.stderr.write(await pullRequests(page, pullSince, pullMs));

    const label = `${expected}`;
    /** Taps Sites; returns the ms until every site is counted and drawn, and the long tasks. */
    const openSites = async (): Promise<[number, Tasks]> => {
      const since = await pageNow(page);
      const tapped = Date.now();
      // Found, and waited for, by plain DOM queries (see `shown`): Playwright's role and text
      // engines walk the page in its own thread at each look, and were counted against the app.
      await page.locator('nav[aria-label="Main"] a[href="/sites"]').click();
      // Opened: the list counts every site and the map has drawn them (canvas, svg or markers),
      // then two quiet seconds. The map reads the sites on its own, after its code has loaded.
      await shown(page, 'p.muted', `${expected.toLocaleString('en-US')} sites`);
      await page.waitForFunction(
        (selector) => document.querySelector(selector) !== null,
        `${APP_MAP} :is(.leaflet-overlay-pane canvas, .leaflet-overlay-pane svg, .leaflet-marker-pane > *)`,
        { polling: 100, timeout: STEP_LIMIT_MS },
      );
      const ms = Date.now() - tapped;
      return [ms, await tasksUntilQuiet(page, since)];
    };
    let openShownMs = 0;
    const open = await traced(page, `${label}-open`, async () => {
      const [ms, tasks] = await openSites();
      openShownMs = ms;
      return tasks;
    });
    const pan = await traced(page, `${label}-pan`, () =>
      panAndZoom(page, `${APP_MAP} .leaflet-container`),
    );
    if (PAN_REPEAT > 0) {
      const rounds = await repeatPans(page, `${APP_MAP} .leaflet-container`, PAN_REPEAT);
      process.stderr.write(`  ${label}: pan and zoom, ${PAN_REPEAT} more rounds: ${rounds}\n`);
    }
    // The app started again on Home (a new page: the site index's worker starts afresh), quiet,
    // then Sites: what a technician meets every morning on a tablet synced the day before. The
    // sites were grown minutes ago, and a pull asks again for rows written in the COMMIT_WAIT_MS
    // (10 min) before the last one (pull-mark.ts): the app's start would store all of them again,
    // its writes ahead of the site index's reads. Made a day old, as a district's sites are.
    await stack.db.query(`update site set updated = updated - interval '1 day' where agency = 1`);
    await page.goto('/');
    await page.getByRole('heading', { name: /^Hello,/ }).waitFor({ timeout: 120_000 });
    await throttle(context, page);
    await tasksUntilQuiet(page, await pageNow(page));
    let reopenShownMs = 0;
    await traced(page, `${label}-reopen`, async () => {
      const [ms, tasks] = await openSites();
      reopenShownMs = ms;
      return tasks;
    });
    if (QUICK)
      return { pullMs, pullHeadMs, progressSeen, pull, open, openShownMs, reopenShownMs, pan };
    const search = await searchForSite(page);
    const newSite = await openNewSite(page);
    const sitesChanged = await sitesChangedUnderNewSite(page, stack);
    await page.goBack();
    const newCollection = await openNewCollection(page);
    return {
      pullMs,
      pullHeadMs,
      progressSeen,
      pull,
      open,
      openShownMs,
      reopenShownMs,
      pan,
      search,
      newSite,
      newCollection,
      sitesChanged,
    };
  } finally {
    await app.dispose();
  }
}

const NAIVE_PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>Naive map</title>
<link rel="stylesheet" href="/leaflet.css">
<style>html,body{margin:0;height:100%}#map{height:100%}</style></head>
<body><div id="map"></div>
<script src="/leaflet.js"></script>
<script>
  // One circleMarker per site with a tooltip, Leaflet's default renderer: a first attempt.
  fetch('/sites.json').then((r) => r.json()).then((sites) => {
    const map = L.map('map');
    const points = [];
    for (const [lat, lon, label] of sites) {
      points.push([lat, lon]);
      L.circleMarker([lat, lon], { radius: 8, weight: 2, color: '#14532d', fillColor: '#22c55e', fillOpacity: 0.85 })
        .bindTooltip(label)
        .addTo(map);
    }
    map.fitBounds(L.latLngBounds(points), { padding: [24, 24], maxZoom: 14, animate: false });
    document.body.dataset.drawn = String(sites.length);
  });
</script></body></html>`;

/** Serves the naive page, Leaflet from node_modules and the agency's sites as [lat, lon, label]. */
async function serveNaive(stack: Stack): Promise<{ url: string; server: Server }> {
  const { rows } = await stack.db.query<{ lat: number; lon: number; label: string }>(
    `select lat, lon, code || ' ' || name as label from site
      where agency = 1 and delete_date is null order by id`,
  );
  const sites = JSON.stringify(rows.map((r) => [r.lat, r.lon, r.label]));
  const leaflet = join(ROOT, 'node_modules/leaflet/dist');
  const files: Record<string, [string, string | Buffer]> = {
    '/': ['text/html', NAIVE_PAGE],
    '/sites.json': ['application/json', sites],
    '/leaflet.js': ['text/javascript', await readFile(join(leaflet, 'leaflet.js'))],
    '/leaflet.css': ['text/css', await readFile(join(leaflet, 'leaflet.css'))],
  };
  const server = createServer((req, res) => {
    const file = files[(req.url ?? '/').split('?')[0]];
    if (!file) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': file[0] }).end(file[1]);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('naive page server has no port');
  return { url: `http://127.0.0.1:${address.port}`, server };
}

async function measureNaive(stack: Stack): Promise<{ open: Tasks; pan: Tasks }> {
  const naive = await serveNaive(stack);
  const app = await launchApp(naive.url, { path: '/leaflet.css' });
  try {
    const { page, context } = app;
    await context.addInitScript(LONGTASK_OBSERVER);
    await throttle(context, page);
    await page.goto('/');
    await page.locator('body[data-drawn]').waitFor({ timeout: STEP_LIMIT_MS });
    // From the page's start (page clock 0): loading the sites and drawing them.
    const open = await tasksUntilQuiet(page, 0);
    const pan = await panAndZoom(page, '#map');
    return { open, pan };
  } finally {
    await app.dispose();
    await new Promise((resolve) => naive.server.close(resolve));
  }
}

/**
 * Issue 40's goals: at 20,000 sites the longest task opening Sites ≤ 150 ms, at 100,000 ≤ 300 ms;
 * panning ≤ 50 ms at both; the first pull of 20,000 sites ≤ 5 s on loopback.
 */
const OPEN_GOAL_MS: Record<number, number> = { 20_000: 150, 100_000: 300 };
const PAN_GOAL_MS = 50;
const PULL_GOAL_S: Record<number, number> = { 20_000: 5 };

/** The goals are set at 4x: at another rate the figures are printed without them. */
const AT_GOALS_RATE = CPU_SLOWDOWN === 4;

const goalOf = (atMost: number | undefined) =>
  atMost === undefined || !AT_GOALS_RATE ? {} : { goal: { atMost } };

/** The app's own figures: the pull, opening Sites and panning. */
function appRows(label: string, size: number, app: QuickFigures): BenchRow[] {
  return [
    {
      name: `${label}: first pull, sign-in → all sites stored`,
      value: app.pullMs / 1000,
      unit: 's',
      ...goalOf(PULL_GOAL_S[size]),
    },
    ...(app.pullHeadMs === null
      ? []
      : [
          {
            name: `${label}: first pull, sign-in → first page of sites asked for`,
            value: app.pullHeadMs,
            unit: 'ms',
          },
        ]),
    {
      name: `${label}: app, longest task during the pull (the page stays usable)`,
      value: app.pull.longest,
      unit: 'ms',
    },
    {
      name: `${label}: progress with counts shown during the pull`,
      value: app.progressSeen ? 1 : 0,
      unit: '1 = yes',
    },
    {
      name: `${label}: app, longest task opening Sites`,
      value: app.open.longest,
      unit: 'ms',
      ...goalOf(OPEN_GOAL_MS[size]),
    },
    {
      // What a technician waits for: the screen complete, read with the list and the map as
      // they are polled (every 100 ms), after sign-in's pull and the page's quiet on Home.
      name: `${label}: app, opening Sites, tap → every site counted and drawn`,
      value: app.openShownMs,
      unit: 'ms',
    },
    {
      name: `${label}: app, after the app starts again, Sites tap → every site counted and drawn`,
      value: app.reopenShownMs,
      unit: 'ms',
    },
    {
      name: `${label}: app, longest task panning and zooming`,
      value: app.pan.longest,
      unit: 'ms',
      ...goalOf(PAN_GOAL_MS),
    },
    {
      name: `${label}: app, long tasks in all while opening Sites`,
      value: app.open.total,
      unit: 'ms',
    },
    {
      // Beside the longest one: on a shared machine one descheduled task sets the longest, while
      // the sum over the three drags and three zooms shows how much of the pan still blocks.
      name: `${label}: app, long tasks in all while panning and zooming`,
      value: app.pan.total,
      unit: 'ms',
    },
  ];
}

/** The first pull beside its floor (pull-floor.ts), in the same browser and throttle. */
function pullFloorRows(label: string, pullMs: number, floorMs: number): BenchRow[] {
  return [
    {
      name: `${label}: pull floor, the same sites fetched, parsed and put into IndexedDB alone`,
      value: floorMs / 1000,
      unit: 's',
    },
    { name: `${label}: first pull, app / floor`, value: pullMs / floorMs, unit: '×' },
  ];
}

/** The naive page's figures beside the app's, and the app's other steps. */
function comparedRows(
  label: string,
  size: number,
  app: AppFigures,
  naive: { open: Tasks; pan: Tasks },
): BenchRow[] {
  return [
    {
      name: `${label}: naive, longest task opening the map`,
      value: naive.open.longest,
      unit: 'ms',
    },
    {
      name: `${label}: open, app / naive (goal ≤ 0.1)`,
      value: app.open.longest / naive.open.longest,
      unit: '×',
      ...(size === 20_000 && AT_GOALS_RATE ? { goal: { atMost: 0.1 } } : {}),
    },
    {
      name: `${label}: naive, longest task panning and zooming`,
      value: naive.pan.longest,
      unit: 'ms',
    },
    {
      name: `${label}: pan/zoom, app / naive (goal ≤ 0.1)`,
      value: app.pan.longest / naive.pan.longest,
      unit: '×',
      ...(size === 20_000 && AT_GOALS_RATE ? { goal: { atMost: 0.1 } } : {}),
    },
    {
      name: `${label}: app, site search typed → the site listed`,
      value: app.search.ms,
      unit: 'ms',
      note: `longest task meanwhile ${app.search.tasks.longest} ms`,
    },
    {
      name: `${label}: app, New site tapped → its form with a proposed code`,
      value: app.newSite.ms,
      unit: 'ms',
      note: `longest task meanwhile ${app.newSite.tasks.longest.toFixed(0)} ms`,
    },
    {
      name: `${label}: app, longest task opening New site`,
      value: app.newSite.tasks.longest,
      unit: 'ms',
    },
    {
      name: `${label}: app, New site open, ${RENAMED} sites renamed by a sync → the form checks the new names`,
      value: app.sitesChanged.ms,
      unit: 'ms',
      note: `longest task meanwhile ${app.sitesChanged.tasks.longest.toFixed(0)} ms`,
    },
    {
      name: `${label}: app, longest task while a sync changes sites under New site`,
      value: app.sitesChanged.tasks.longest,
      unit: 'ms',
      ...(size === 20_000 && AT_GOALS_RATE ? { goal: { atMost: 50 } } : {}),
    },
    {
      name: `${label}: app, New collection tapped → its site picker listing sites`,
      value: app.newCollection.ms,
      unit: 'ms',
      note: `longest task meanwhile ${app.newCollection.tasks.longest.toFixed(0)} ms`,
    },
    {
      name: `${label}: naive, long tasks in all while opening`,
      value: naive.open.total,
      unit: 'ms',
    },
  ];
}

export async function benchMapScale(): Promise<BenchRow[]> {
  await ensureAppBuilt();
  const stack = await startStack({ onDisk: true });
  const rows: BenchRow[] = [];
  try {
    let grown = 0;
    for (const size of SIZES) {
      await growSites(stack.db, size - grown, grown);
      grown = size;
      await refreshStatistics(stack.db);
      const { rows: counted } = await stack.db.query<{ n: number; last: number }>(
        `select count(*)::int as n, max(id)::int as last from site
          where agency = 1 and delete_date is null`,
      );
      const expected = counted[0].n;
      const label = `map scale ${size / 1000}k${CPU_SLOWDOWN === 4 ? '' : ` at ${CPU_SLOWDOWN}x CPU`}`;
      process.stderr.write(`  ${label}: ${expected} sites of agency 1; the app…\n`);
      const app = await measureApp(stack, expected, counted[0].last);
      rows.push(...appRows(label, size, app));
      process.stderr.write(`  ${label}: the pull's floor…\n`);
      const floorMs = await measurePullFloor(stack, expected, throttle);
      rows.push(...pullFloorRows(label, app.pullMs, floorMs));
      if (QUICK) continue;
      process.stderr.write(`  ${label}: the naive page…\n`);
      const naive = await measureNaive(stack);
      rows.push(...comparedRows(label, size, app as AppFigures, naive));
    }
    return rows;
  } finally {
    await stack.stop();
  }
}
