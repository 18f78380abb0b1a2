/**
 * First load as Lighthouse measures it (issue 40): Lighthouse's mobile run (simulated slow 4G and
 * a 4x slower CPU, a mid-range phone's screen) on the sign-in page and on Home signed in, against
 * the built app served by the real stack (BFF and records service, test/e2e/harness/stack.ts).
 * Rows: performance score, largest contentful paint and accessibility score, each the median of
 * LIGHTHOUSE_RUNS runs (default 3), with the issue's goals (≥ 95, ≤ 2.0 s, 100); the note names
 * the element Lighthouse took as the largest paint (which shows what was measured: the sign-in
 * form, or Home's greeting) and every run's figures.
 *
 * Lighthouse comes from the npm registry through `npx` at a pinned version (not a devDependency:
 * its 200 packages would slow every `npm ci` for a bench that runs now and then); the first run
 * downloads it into npx's cache. Chromium is the machine's (/usr/bin/chromium, or CHROME_PATH);
 * the network stays closed (the app's tiles point at a closed port, and nothing else is fetched).
 * Home is Home as a returning technician opens it: Chromium's profile from a sign-in made by the
 * e2e harness (identity remembered, service worker installed, the first pull done), which
 * Lighthouse opens without resetting its storage, and that sign-in's session cookie sent as a
 * header (Chromium keeps no session cookie across a restart, and the app would ask to sign in
 * again).
 * `npm run bench -- lighthouse`. Prints figures, never asserts them.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { AppBrowser } from '../e2e/harness/browser';
import { ensureAppBuilt } from '../e2e/harness/build-app';
import { launchSignedIn } from '../e2e/harness/field-actions';
import { startStack, type Stack } from '../e2e/harness/stack';
import type { BenchRow } from './run';

const LIGHTHOUSE = 'lighthouse@12.8.2';
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
/** LIGHTHOUSE_REPORTS=dir keeps each run's whole report there (its opportunities, its trace). */
const REPORTS = process.env.LIGHTHOUSE_REPORTS;
let reportSeq = 0;
const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-default-apps',
  '--disable-sync',
  '--no-first-run',
  '--no-default-browser-check',
  '--metrics-recording-only',
].join(' ');

/** What a run gives: the issue's three figures and the element of the largest paint. */
type RunFigures = { performance: number; lcpMs: number; accessibility: number; lcpOf: string };

type LighthouseResult = {
  runtimeError?: { message: string };
  categories: Record<'performance' | 'accessibility', { score: number | null }>;
  audits: Record<
    string,
    {
      numericValue?: number;
      details?: { items?: { items?: { node?: { snippet?: string; nodeLabel?: string } }[] }[] };
    }
  >;
};

const run = promisify(execFile);

/** A profile a run opens as it is (storage and service worker kept), with a session cookie. */
type SignedIn = { profileDir: string; cookie: string };

/**
 * One Lighthouse mobile run of `url`: on a fresh profile, or on a signed-in one. A run that
 * Lighthouse itself gives up on (NO_NAVSTART and the like: its trace of the load came out
 * incomplete, "please run Lighthouse again") is tried again, twice at most.
 */
async function lighthouse(url: string, tablet: SignedIn | null = null): Promise<RunFigures> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await lighthouseOnce(url, tablet);
    } catch (err) {
      if (attempt === 3) throw err;
      process.stderr.write(`  Lighthouse run failed, again: ${String(err).split('\n')[0]}\n`);
    }
  }
}

async function lighthouseOnce(url: string, tablet: SignedIn | null): Promise<RunFigures> {
  const dir = await mkdtemp(join(tmpdir(), 'trapline-lighthouse-'));
  const report = join(dir, 'report.json');
  try {
    await run(
      'npx',
      [
        '--yes',
        LIGHTHOUSE,
        url,
        '--quiet',
        '--output=json',
        `--output-path=${report}`,
        '--only-categories=performance,accessibility',
        // Chromium takes the last --user-data-dir given: this one, after chrome-launcher's own.
        `--chrome-flags=${CHROME_FLAGS}${tablet ? ` --user-data-dir=${tablet.profileDir}` : ''}`,
        ...(tablet
          ? [
              '--disable-storage-reset',
              `--extra-headers=${JSON.stringify({ Cookie: tablet.cookie })}`,
            ]
          : []),
      ],
      {
        env: { ...process.env, CHROME_PATH },
        maxBuffer: 16 * 1024 * 1024,
        timeout: 5 * 60_000,
      },
    );
    const text = await readFile(report, 'utf8');
    if (REPORTS) {
      await mkdir(REPORTS, { recursive: true });
      const name = `${tablet ? 'home' : 'sign-in'}-${(reportSeq += 1)}.json`;
      await writeFile(join(REPORTS, name), text);
    }
    const lhr = JSON.parse(text) as LighthouseResult;
    if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.message}`);
    const lcpItem = lhr.audits['largest-contentful-paint-element']?.details?.items?.[0]?.items?.[0];
    return {
      performance: Math.round((lhr.categories.performance.score ?? 0) * 100),
      lcpMs: lhr.audits['largest-contentful-paint'].numericValue ?? Number.NaN,
      accessibility: Math.round((lhr.categories.accessibility.score ?? 0) * 100),
      lcpOf: lcpItem?.node?.nodeLabel ?? lcpItem?.node?.snippet ?? '?',
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * A profile signed in as demo-tech, its service worker ready and the first pull over (the sync
 * bar no longer downloading), closed: what a returning technician's tablet holds.
 */
async function signedInProfile(stack: Stack): Promise<{ app: AppBrowser; tablet: SignedIn }> {
  const app = await launchSignedIn(stack);
  await app.page
    .getByText(/^Downloading /)
    .waitFor({ state: 'detached', timeout: 120_000 })
    .catch(() => undefined);
  const session = (await app.context.cookies()).find((c) => c.name === '__Host-trapline');
  if (!session) throw new Error('no session cookie after signing in');
  await app.close();
  return {
    app,
    tablet: { profileDir: app.profileDir, cookie: `${session.name}=${session.value}` },
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

function rowsOf(label: string, runs: RunFigures[]): BenchRow[] {
  const each = (pick: (r: RunFigures) => number) => runs.map(pick).join(', ');
  const lcpOf = [...new Set(runs.map((r) => r.lcpOf))].join(' / ');
  return [
    {
      name: `lighthouse mobile, ${label}: performance score`,
      value: median(runs.map((r) => r.performance)),
      unit: 'score',
      goal: { atLeast: 95 },
      note: `median of ${runs.length} runs: ${each((r) => r.performance)}`,
    },
    {
      name: `lighthouse mobile, ${label}: largest contentful paint`,
      value: median(runs.map((r) => r.lcpMs)) / 1000,
      unit: 's',
      goal: { atMost: 2 },
      note: `runs: ${each((r) => Math.round(r.lcpMs))} ms; largest paint: ${lcpOf}`,
    },
    {
      name: `lighthouse mobile, ${label}: accessibility score`,
      value: median(runs.map((r) => r.accessibility)),
      unit: 'score',
      goal: { atLeast: 100 },
      note: `runs: ${each((r) => r.accessibility)}`,
    },
  ];
}

export async function benchLighthouse(): Promise<BenchRow[]> {
  await ensureAppBuilt();
  const stack = await startStack();
  try {
    const signIn: RunFigures[] = [];
    const home: RunFigures[] = [];
    const { app, tablet } = await signedInProfile(stack);
    try {
      // Alternated, so a burst of load on the machine lands on both pages alike.
      for (let i = 0; i < RUNS; i++) {
        signIn.push(await lighthouse(`${stack.appUrl}/`));
        home.push(await lighthouse(`${stack.appUrl}/`, tablet));
      }
    } finally {
      await app.dispose();
    }
    return [...rowsOf('sign-in page', signIn), ...rowsOf('Home signed in', home)];
  } finally {
    await stack.stop();
  }
}
