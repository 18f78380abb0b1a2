/**
 * The Reports screen's time to a drawn chart, in Chromium against the real BFF and records
 * service, on an agency with a few hundred collections and pools over two seasons. Timed inside
 * the page (performance.now from the tap to the chart's SVG in the document), so the figures are
 * what a manager waits for, without the test driver's own overhead:
 *
 * - first open: tap "Reports" → the screen's chunk loads, the BFF reads the agency's lists and
 *   computes, the chart chunk loads and draws;
 * - another report: tap "Infection rate" (lists cached by the BFF, chunks loaded);
 * - reopen after a reload: the stored report drawn from IndexedDB (then refreshed online).
 *
 * `npm run bench -- reports-screen`. Prints figures; never asserts a time.
 */
import type { Page } from 'playwright-core';
import {
  METHOD_ID,
  SEX_ID,
  SPECIES_ID,
  STATUS_ID,
  TARGET_ID,
  TRAP_ID,
} from '../../src/server/records/seed/lookup-data';
import { ensureAppBuilt } from '../e2e/harness/build-app';
import { launchApp } from '../e2e/harness/browser';
import { signIn } from '../e2e/harness/field-actions';
import { recordsApi, type RecordsApi } from '../e2e/harness/records-api';
import { DIST_DIR } from '../e2e/harness/paths';
import { openDatabase } from '../../src/server/db/open-database';
import { startBff } from '../../src/server/bff/app';
import { buildRecords } from '../../src/server/records/app';
import { seedDemoAgencies } from '../../src/server/records/seed/seed-demo-agencies';
import { seedLookups } from '../../src/server/records/seed/seed-lookups';
import type { BenchRow } from './run';

const PASSWORD = 'bench-password-reports-screen';
/** Tiles at a closed port: the machine has no internet, and Reports draws no map. */
const TILE_URL = 'https://127.0.0.1:9/{z}/{x}/{y}.png';
const COLLECTIONS = 400;
const POOLS_EVERY = 2; // one tested pool for every other collection
const season = new Date().getUTCFullYear();
const SPECIES = [SPECIES_ID.cxTarsalis, SPECIES_ID.cxPipiens, SPECIES_ID.cxQuinque];

/** Collections spread over weeks 18–40 of this season and the last, at one location. */
async function seed(api: RecordsApi): Promise<number> {
  let pools = 0;
  // A few at a time: the records service runs one query at a time anyway.
  const batch = 8;
  for (let start = 0; start < COLLECTIONS; start += batch) {
    await Promise.all(
      Array.from({ length: Math.min(batch, COLLECTIONS - start) }, async (_, k) => {
        const i = start + k;
        const year = i % 2 === 0 ? season : season - 1;
        const day = new Date(Date.UTC(year, 4, 1 + (i % 160)));
        const counts = SPECIES.map((_, s) => ((i * 7 + s * 13) % 40) + 1);
        const res = await api.post<{ id: number }>('/v1/arthropod/collection', {
          collection_date: day.toISOString().slice(0, 10),
          trap: i % 3 === 0 ? TRAP_ID.gravid : TRAP_ID.co2,
          num_trap: 1 + (i % 2),
          trap_nights: 1,
          location: {
            shape: { type: 'Point', coordinates: [-121.49, 38.58] },
            coordinate_precision: 1,
          },
          arthropods: SPECIES.map((species, s) => ({
            species,
            sex: SEX_ID.fMixed,
            num_count: counts[s],
          })),
        });
        if (res.status !== 201) throw new Error(`seed collection: ${JSON.stringify(res.body)}`);
        if (i % POOLS_EVERY !== 0) return;
        const pool = await api.post<{ id: number }>('/v1/arthropod/pool', {
          collection: res.body.id,
          species: SPECIES_ID.cxTarsalis,
          sex: SEX_ID.fMixed,
          num_count: counts[0],
        });
        if (pool.status !== 201) throw new Error(`seed pool: ${JSON.stringify(pool.body)}`);
        await api.post('/v1/arthropod/pool/test', {
          pool: pool.body.id,
          method: METHOD_ID.rtPcr,
          target: TARGET_ID.wnv,
          status: i % 10 === 0 ? STATUS_ID.confirmed : STATUS_ID.negative,
          test_date: day.toISOString().slice(0, 10),
          test_agency: 1,
        });
        pools += 1;
      }),
    );
  }
  return pools;
}

/** The chart each action leads to (its name says which report it draws). */
const CHART_OF = {
  nav: '[data-testid="report-chart"][aria-label^="Mosquitoes per trap night"] circle',
  infection: '[data-testid="report-chart"][aria-label^="Infection rate"] circle',
};

/**
 * Runs `act` in the page and resolves with the milliseconds until a report chart is in the
 * document and painted (the next animation frame after it appeared).
 */
async function msToChart(page: Page, act: 'nav' | 'infection'): Promise<number> {
  // A string, not a function: tsx would add its __name helper to inner functions, which the
  // page does not have.
  return page.evaluate(`new Promise((resolve) => {
    const started = performance.now();
    new MutationObserver((_, observer) => {
      // The chart of the report asked for, not the one it replaces.
      if (!document.querySelector(${JSON.stringify(CHART_OF[act])})) return;
      observer.disconnect();
      requestAnimationFrame(() => resolve(performance.now() - started));
    }).observe(document.body, { childList: true, subtree: true });
    const pick = ${JSON.stringify(act)} === 'nav' ? ['nav a', 'Reports']
      : ['label', 'Infection rate'];
    [...document.querySelectorAll(pick[0])].find((e) => e.textContent === pick[1]).click();
  })`);
}

/**
 * Records service and BFF (serving the built app) on one embedded database, as `npm start`
 * runs them. The e2e harness's startStack needs Vitest (its database comes from the test run's
 * template); a bench runs under plain tsx.
 */
async function startServers() {
  const db = await openDatabase({});
  await seedLookups(db);
  await seedDemoAgencies(db, { password: PASSWORD });
  const records = await buildRecords({ db, logger: false });
  const recordsUrl = await records.listen({ port: 0, host: '127.0.0.1' });
  const bff = await startBff({
    db,
    upstreamUrl: recordsUrl,
    staticRoot: DIST_DIR,
    tileUrl: TILE_URL,
    logger: false,
  });
  return {
    appUrl: bff.url,
    recordsUrl,
    password: PASSWORD,
    async stop() {
      await bff.close();
      await records.close();
      await db.close();
    },
  };
}

export async function benchReportsScreen(): Promise<BenchRow[]> {
  await ensureAppBuilt();
  const stack = await startServers();
  const app = await launchApp(stack.appUrl);
  try {
    const seeded = Date.now();
    const pools = await seed(await recordsApi(stack.recordsUrl, stack.password));
    const seedMs = Date.now() - seeded;
    await signIn(app.page, { username: 'demo-manager', password: stack.password });
    await app.page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    const first = await msToChart(app.page, 'nav');
    const other = await msToChart(app.page, 'infection');
    // Back to the first report, then a reload: its stored copy is drawn before any answer.
    await app.page.goto('/');
    await app.page.waitForSelector('nav a');
    await app.page.goto('/reports');
    await app.page.waitForSelector('[data-testid="report-chart"]');
    await app.page.waitForTimeout(500); // let the persister's coalesced write land
    await app.page.reload();
    // Milliseconds from the start of the reload's navigation to the stored chart on screen.
    const reopen = await app.page.evaluate<number>(`new Promise((resolve) => {
      (function poll() {
        if (document.querySelector('[data-testid="report-chart"] circle')) resolve(performance.now());
        else requestAnimationFrame(poll);
      })();
    })`);
    const data = `${COLLECTIONS} collections, ${pools} pools`;
    return [
      { name: 'reports screen: seed agency', value: seedMs / 1000, unit: `s (${data})` },
      { name: 'reports screen: first open to chart', value: first, unit: `ms (${data})` },
      { name: 'reports screen: switch report to chart', value: other, unit: 'ms (infection rate)' },
      {
        name: 'reports screen: reload to stored chart',
        value: reopen,
        unit: 'ms since navigation start (from IndexedDB)',
      },
    ];
  } finally {
    await app.dispose();
    await stack.stop();
  }
}
