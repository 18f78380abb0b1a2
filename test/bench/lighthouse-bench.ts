/**
 * First load as Lighthouse scores it (issue 40): Lighthouse 12, mobile (its defaults: a 412 px
 * phone, simulated slow 4G, 4x CPU), on the sign-in page of a fresh profile and on Home signed
 * in (the tablet's everyday start: session, service worker and stored sites kept), against the
 * real BFF and records service serving the built app. Goals: performance ≥ 95, largest
 * contentful paint ≤ 2.0 s, accessibility 100. Reference in the same run: a page with one
 * heading and one paragraph, served from loopback to the same browser under the same settings,
 * the least any page scores here (its LCP is the simulated network's own cost).
 *
 * Lighthouse comes from the npm registry at its pinned version into .trapline/bench-tools (git-
 * ignored) the first time, not as a dependency: 200 packages that `npm ci` and CI need not
 * install for a figure only this bench prints. Each page is scored LIGHTHOUSE_RUNS times (3)
 * and the median printed, each run's value in the note (Lighthouse's own advice: one run varies).
 * `npm run bench -- lighthouse`; LIGHTHOUSE_REPORTS=dir keeps each run's whole result there.
 * Prints figures, never asserts a time.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureAppBuilt } from '../e2e/harness/build-app';
import { CHROMIUM_ARGS } from '../e2e/harness/browser';
import { ROOT } from '../e2e/harness/paths';
import { E2E_PASSWORD, startStack } from '../e2e/harness/stack';
import type { BenchRow } from './run';

const LIGHTHOUSE_VERSION = '12.8.2';
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
/** The full browser, as a phone runs it (the headless shell lacks parts Lighthouse reads). */
const BROWSER = process.env.TRAPLINE_CHROMIUM || '/usr/bin/chromium';
const TOOLS = join(ROOT, '.trapline', 'bench-tools', `lighthouse-${LIGHTHOUSE_VERSION}`);
/** A folder to write each run's whole Lighthouse result into (JSON: the LCP element, the chains). */
const REPORTS = process.env.LIGHTHOUSE_REPORTS;

type Audit = { numericValue?: number; details?: { overallSavingsBytes?: number } };
type LighthouseResult = {
  categories: Record<string, { score: number | null }>;
  audits: Record<string, Audit>;
  runtimeError?: { code: string; message: string };
};
type PuppeteerPage = {
  goto(url: string, options?: object): Promise<unknown>;
  waitForSelector(selector: string, options?: object): Promise<unknown>;
  type(selector: string, text: string): Promise<void>;
  click(selector: string): Promise<void>;
  evaluate<T>(fn: () => T | Promise<T>): Promise<T>;
  close(): Promise<void>;
};
type PuppeteerBrowser = { newPage(): Promise<PuppeteerPage>; close(): Promise<void> };
type Lighthouse = (
  url: string,
  flags: object,
  config: undefined,
  page: PuppeteerPage,
) => Promise<{ lhr: LighthouseResult } | undefined>;

/** Lighthouse and its puppeteer-core, installed at the pinned version on first use. */
async function loadLighthouse(): Promise<{
  lighthouse: Lighthouse;
  launch: (options: object) => Promise<PuppeteerBrowser>;
}> {
  const entry = join(TOOLS, 'node_modules', 'lighthouse', 'core', 'index.js');
  if (!existsSync(entry)) {
    process.stderr.write(`  fetching lighthouse@${LIGHTHOUSE_VERSION} into ${TOOLS} …\n`);
    mkdirSync(TOOLS, { recursive: true });
    execFileSync(
      'npm',
      [
        'install',
        '--prefix',
        TOOLS,
        '--no-save',
        '--no-audit',
        '--no-fund',
        `lighthouse@${LIGHTHOUSE_VERSION}`,
      ],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
  }
  const lighthouse = (await import(pathToFileURL(entry).href)) as { default: Lighthouse };
  const puppeteer = (await import(
    pathToFileURL(
      join(TOOLS, 'node_modules', 'puppeteer-core', 'lib', 'esm', 'puppeteer', 'puppeteer-core.js'),
    ).href
  )) as { default: { launch: (options: object) => Promise<PuppeteerBrowser> } };
  return { lighthouse: lighthouse.default, launch: (o) => puppeteer.default.launch(o) };
}

type Score = {
  performance: number;
  accessibility: number;
  lcpMs: number;
  fcpMs: number;
  tbtMs: number;
  unusedJsKb: number;
};

function scoreOf(lhr: LighthouseResult, what: string): Score {
  if (lhr.runtimeError) throw new Error(`Lighthouse on ${what}: ${lhr.runtimeError.message}`);
  const pct = (name: string) => Math.round((lhr.categories[name]?.score ?? 0) * 100);
  const ms = (name: string) => lhr.audits[name]?.numericValue ?? Number.NaN;
  return {
    performance: pct('performance'),
    accessibility: pct('accessibility'),
    lcpMs: ms('largest-contentful-paint'),
    fcpMs: ms('first-contentful-paint'),
    tbtMs: ms('total-blocking-time'),
    unusedJsKb: (lhr.audits['unused-javascript']?.details?.overallSavingsBytes ?? 0) / 1024,
  };
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** A page with a heading and a paragraph: what the simulated phone and network cost by themselves. */
async function serveReference(): Promise<{ url: string; server: Server }> {
  const html =
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Reference</title></head>' +
    '<body><main><h1>Trapline</h1><p>A page with one heading and one paragraph, nothing else to load.</p></main></body></html>';
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no reference address');
  return { url: `http://127.0.0.1:${address.port}/`, server };
}

export async function benchLighthouse(): Promise<BenchRow[]> {
  const { lighthouse, launch } = await loadLighthouse();
  await ensureAppBuilt();
  const stack = await startStack();
  const reference = await serveReference();
  // A fresh profile each round: the round before signed in, and a second sign-in page scored in
  // its profile would be a returning tablet's.
  const newBrowser = () =>
    launch({
      executablePath: BROWSER,
      headless: true,
      // The e2e harness's flags for this machine (puppeteer adds its own headless flag).
      args: CHROMIUM_ARGS.filter((arg) => arg !== '--headless'),
    });
  const flags = {
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance', 'accessibility'],
  };
  const score = async (what: string, url: string, keepStorage: boolean, page: PuppeteerPage) => {
    const result = await lighthouse(
      url,
      { ...flags, disableStorageReset: keepStorage },
      undefined,
      page,
    );
    if (!result) throw new Error(`Lighthouse gave no result for ${what}`);
    if (REPORTS) {
      mkdirSync(REPORTS, { recursive: true });
      const file = `${what.replace(/[^a-z]+/gi, '-')}-${Date.now()}.json`;
      writeFileSync(join(REPORTS, file), JSON.stringify(result.lhr));
    }
    return scoreOf(result.lhr, what);
  };
  const runs: Record<'reference' | 'signIn' | 'home', Score[]> = {
    reference: [],
    signIn: [],
    home: [],
  };
  try {
    for (let round = 0; round < RUNS; round += 1) {
      process.stderr.write(`  lighthouse round ${round + 1} of ${RUNS} …\n`);
      const browser = await newBrowser();
      try {
        const page = await browser.newPage();
        runs.reference.push(await score('the reference page', reference.url, false, page));
        // A fresh profile's first visit: Lighthouse clears the origin's storage before it loads.
        runs.signIn.push(await score('the sign-in page', `${stack.appUrl}/`, false, page));
        // Signed in as a technician, the service worker installed and the first pull done: then
        // Home is loaded as a tablet opens Trapline every morning (storage kept).
        await page.goto(`${stack.appUrl}/`, { waitUntil: 'load' });
        const username = 'input[name="username"]:not([hidden])';
        await page.waitForSelector(username, { timeout: 30_000 });
        await page.type(username, 'demo-tech');
        await page.type('input[name="password"]', E2E_PASSWORD);
        await page.click('form button[type="submit"]');
        await page.waitForSelector('::-p-text(Hello,)', { timeout: 60_000 });
        await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
        runs.home.push(await score('Home, signed in', `${stack.appUrl}/`, true, page));
      } finally {
        await browser.close();
      }
    }
  } finally {
    reference.server.close();
    await stack.stop();
  }
  const rows: BenchRow[] = [];
  const each = (scores: Score[], key: keyof Score) =>
    scores.map((s) => s[key].toFixed(0)).join(', ');
  const ref = {
    lcpMs: median(runs.reference.map((s) => s.lcpMs)),
    performance: median(runs.reference.map((s) => s.performance)),
  };
  rows.push({
    name: 'lighthouse: reference page (one heading), performance',
    value: ref.performance,
    unit: 'score',
    note: `largest contentful paint ${ref.lcpMs.toFixed(0)} ms (runs: ${each(runs.reference, 'lcpMs')} ms)`,
  });
  for (const [key, label] of [
    ['signIn', 'sign-in page'],
    ['home', 'Home, signed in'],
  ] as const) {
    const scores = runs[key];
    const lcp = median(scores.map((s) => s.lcpMs));
    rows.push(
      {
        name: `lighthouse: ${label}, performance`,
        value: median(scores.map((s) => s.performance)),
        unit: 'score',
        goal: { atLeast: 95 },
        note: `runs: ${each(scores, 'performance')}; first contentful paint ${each(scores, 'fcpMs')} ms; total blocking ${each(scores, 'tbtMs')} ms; unused JavaScript ${each(scores, 'unusedJsKb')} KiB`,
      },
      {
        name: `lighthouse: ${label}, largest contentful paint`,
        value: lcp,
        unit: 'ms',
        goal: { atMost: 2_000 },
        note: `runs: ${each(scores, 'lcpMs')} ms; ${(lcp / ref.lcpMs).toFixed(2)}x the reference page's`,
      },
      {
        name: `lighthouse: ${label}, accessibility`,
        value: Math.min(...scores.map((s) => s.accessibility)),
        unit: 'score',
        goal: { atLeast: 100 },
        note: `runs: ${each(scores, 'accessibility')} (the lowest printed)`,
      },
    );
  }
  return rows;
}
