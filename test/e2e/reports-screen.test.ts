import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  METHOD_ID,
  SEX_ID,
  SPECIES_ID,
  STATUS_ID,
  TARGET_ID,
  TRAP_ID,
} from '../../src/server/records/seed/lookup-data';
import { ensureAppBuilt } from './harness/build-app';
import { LANDSCAPE, launchApp, type AppBrowser } from './harness/browser';
import { navigate, signIn, visible } from './harness/field-actions';
import { inspectScreen } from './harness/inspect-screen';
import { OUTPUT_DIR } from './harness/paths';
import { recordsApi, type RecordsApi } from './harness/records-api';
import { startStack, type Stack } from './harness/stack';

/**
 * A district manager's week in Reports, in real Chromium against the real BFF and records
 * service. The data is tiny on purpose so every figure is worked out by hand below (spec:
 * shared/spec/surveillance-calculations.md); the current season is 2026 in these figures, so
 * the seeded dates are written relative to it.
 *
 * Season S (MMWR week 27 = the week of 8 July in 2026):
 *   C1 S-07-08 CO2, 1 trap × 1 night: Cx tarsalis F-Mixed 30, Cx pipiens F-Gravid 10, Cx tarsalis male 5
 *   C2 S-07-09 GRVD, 2 traps × 1 night: Cx tarsalis F-Unfed 8
 *   C3 S-07-15 CO2 (week 28): Cx tarsalis F-Mixed 12
 * S-1: C4 (S-1)-07-02 CO2 (week 27): Cx tarsalis 20        S-2: C5 (S-2)-07-03 CO2, 2 traps (week 27): Cx tarsalis 20, Cx pipiens 4
 *
 * Week 27 of S: trap events 1 + 2 = 3; females only (the male 5 is left out):
 *   Cx tarsalis 38 → 38 / 3 = 12.6667;  earlier years 20/1 = 20 and 20/2 = 10 → average 15;
 *                   change round((12.6667 − 15) / 15, 4) × 100 = −15.56 %
 *   Cx pipiens  10 → 10 / 3 = 3.3333;   earlier years 0 (S-1 trapped, none caught) and 4/2 = 2 →
 *                   average 1; change round(2.3333, 4) × 100 = 233.33 %
 * Week 28 of S: Cx tarsalis 12 / 1 = 12, no earlier year in week 28 → no average.
 * Pools (WNV): 30 Cx tarsalis from C1 Confirmed, 8 from C2 Negative → MIR = 1 / 38 × 1000 =
 *   26.3158 per 1,000; CI p ± 1.959964·√(p(1−p)/38) → [0, 77.2106].
 * Vector index (all sexes): Cx tarsalis week 27 = 43 / 3 = 14.3333 × 26.3158… = 377.1921.
 *
 * These dates are the 2026 MMWR weeks; the test runs with the current year as S, and checks
 * that S's week 27 is the week of 8 July (true for 2026; other years shift the week number, so the
 * week cell is read from the row instead of hard-coded).
 */
const S = new Date().getUTCFullYear();

const spot = {
  location: { shape: { type: 'Point', coordinates: [-121.49, 38.58] }, coordinate_precision: 1 },
};

async function seed(api: RecordsApi) {
  const collection = async (date: string, trap: number, numTrap: number, rows: number[][]) => {
    const res = await api.post<{ id: number }>('/v1/arthropod/collection', {
      collection_date: date,
      trap,
      num_trap: numTrap,
      trap_nights: 1,
      ...spot,
      arthropods: rows.map(([species, sex, num_count]) => ({ species, sex, num_count })),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.id;
  };
  const c1 = await collection(`${S}-07-08`, TRAP_ID.co2, 1, [
    [SPECIES_ID.cxTarsalis, SEX_ID.fMixed, 30],
    [SPECIES_ID.cxPipiens, SEX_ID.fGravid, 10],
    [SPECIES_ID.cxTarsalis, SEX_ID.male, 5],
  ]);
  const c2 = await collection(`${S}-07-09`, TRAP_ID.gravid, 2, [
    [SPECIES_ID.cxTarsalis, SEX_ID.fUnfed, 8],
  ]);
  await collection(`${S}-07-15`, TRAP_ID.co2, 1, [[SPECIES_ID.cxTarsalis, SEX_ID.fMixed, 12]]);
  await collection(`${S - 1}-07-02`, TRAP_ID.co2, 1, [[SPECIES_ID.cxTarsalis, SEX_ID.fMixed, 20]]);
  await collection(`${S - 2}-07-03`, TRAP_ID.co2, 2, [
    [SPECIES_ID.cxTarsalis, SEX_ID.fMixed, 20],
    [SPECIES_ID.cxPipiens, SEX_ID.fMixed, 4],
  ]);
  const pool = async (collectionId: number, sex: number, count: number, status: number) => {
    const p = await api.post<{ id: number }>('/v1/arthropod/pool', {
      collection: collectionId,
      species: SPECIES_ID.cxTarsalis,
      sex,
      num_count: count,
    });
    expect(p.status, JSON.stringify(p.body)).toBe(201);
    const t = await api.post('/v1/arthropod/pool/test', {
      pool: p.body.id,
      method: METHOD_ID.rtPcr,
      target: TARGET_ID.wnv,
      status,
      test_date: `${S}-07-20`,
      test_agency: 1,
    });
    expect(t.status, JSON.stringify(t.body)).toBe(201);
  };
  await pool(c1, SEX_ID.fMixed, 30, STATUS_ID.confirmed);
  await pool(c2, SEX_ID.fUnfed, 8, STATUS_ID.negative);
}

/** Follows "Reports" in the main navigation (the harness's navigate predates the link). */
async function openReports(page: Page) {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Reports', exact: true })
    .click();
}

/** The report table as text: header cells and each row's cells. */
async function readTable(page: Page): Promise<{ head: string[]; rows: string[][] }> {
  const table = page.getByRole('region', { name: 'Report table' }).getByRole('table');
  await visible(table);
  return table.evaluate((t: HTMLTableElement) => ({
    head: [...t.tHead!.rows[0].cells].map((c) => c.textContent ?? ''),
    rows: [...t.tBodies[0].rows].map((r) => [...r.cells].map((c) => c.textContent ?? '')),
  }));
}

/** The row whose cells include every one of `keys`, as {header: cell}. */
function rowWith(table: { head: string[]; rows: string[][] }, ...keys: string[]) {
  const row = table.rows.find((r) => keys.every((k) => r.includes(k)));
  if (!row) throw new Error(`no row with ${keys.join(', ')} in ${JSON.stringify(table.rows)}`);
  return Object.fromEntries(table.head.map((h, i) => [h, row[i]]));
}

/**
 * Each report stored in the tablet's report cache, as "<kind> <when computed, as the screen
 * writes it>": the kind too, since reports computed in the same minute have the same time.
 */
function storedComputedTimes(page: Page): Promise<string[]> {
  return page.evaluate(
    () =>
      new Promise<string[]>((resolve) => {
        const open = indexedDB.open('trapline-report-cache');
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('owners')) return resolve([]);
          const all = db.transaction('owners').objectStore('owners').getAll();
          all.onsuccess = () => {
            type Stored = {
              state: {
                queries: { queryKey: unknown[]; state: { data?: { computedAt: number } } }[];
              };
            };
            // The store also holds each user's last viewed report (a string): skipped.
            resolve(
              (all.result as (Stored | string)[]).flatMap((e) =>
                typeof e === 'string'
                  ? []
                  : e.state.queries.map(
                      (q) =>
                        `${String(q.queryKey[2])} ${new Date(
                          q.state.data?.computedAt ?? 0,
                        ).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' })}`,
                    ),
              ),
            );
            db.close();
          };
        };
        open.onerror = () => resolve([]);
      }),
  );
}

/** Every column of the report table in view, with no sideways scrolling (portrait too). */
async function tableFits(page: Page, label: string) {
  const region = page.getByRole('region', { name: 'Report table' });
  const { scrollWidth, clientWidth, lastRight, right } = await region.evaluate((el) => {
    const last = el.querySelector('thead th:last-child')!.getBoundingClientRect();
    return {
      scrollWidth: el.scrollWidth,
      clientWidth: el.clientWidth,
      lastRight: last.right,
      right: el.getBoundingClientRect().right,
    };
  });
  expect(scrollWidth, `${label}: table wider than its box`).toBeLessThanOrEqual(clientWidth);
  expect(lastRight, `${label}: last column cut`).toBeLessThanOrEqual(right);
}

/** The colour a chart draws a group's line in. */
function seriesStroke(page: Page, name: string) {
  return page
    .getByTestId('report-chart')
    .locator(`[data-series="${name}"] path`)
    .first()
    .getAttribute('stroke');
}

/** Waits until the report on show was computed and drawn (chart and table). */
async function reportShown(page: Page) {
  await visible(page.getByTestId('report-computed'), 30_000);
  await visible(page.getByTestId('report-chart'));
}

describe('Reports screen in Chromium', () => {
  let stack: Stack;
  let app: AppBrowser;
  let computedText = '';
  /** The MMWR week of S-07-08 (read from the first report: it depends on the year). */
  let week = '';
  /** Cx tarsalis' line colour in the first report: the same in every other. */
  let tarsalisStroke: string | null = null;

  /**
   * Axe and screenshots at both sizes, the seven navigation links of a manager (Office too) on
   * one line in each, and every
   * column of the report table in view.
   */
  async function inspect(name: string) {
    const page = app.page;
    await inspectScreen(page, name, async (viewport) => {
      if (await page.getByRole('region', { name: 'Report table' }).count())
        await tableFits(page, `${name} ${viewport.width}x${viewport.height}`);
      const nav = await page.getByRole('navigation', { name: 'Main' }).getByRole('link').all();
      const boxes = await Promise.all(nav.map((l) => l.boundingBox()));
      expect(boxes).toHaveLength(7);
      for (const b of boxes) {
        expect(b!.x).toBeGreaterThanOrEqual(0);
        expect(b!.x + b!.width).toBeLessThanOrEqual(viewport.width + 0.5);
        expect(b!.y).toBe(boxes[0]!.y);
      }
    });
  }

  beforeAll(async () => {
    await ensureAppBuilt();
    stack = await startStack();
    await seed(await recordsApi(stack.recordsUrl, stack.password));
    app = await launchApp(stack.appUrl);
    await signIn(app.page, { username: 'demo-manager', password: stack.password });
    await app.page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
  });

  afterAll(async () => {
    await app?.dispose();
    await stack?.stop();
  });

  it('opens on this season’s abundance against the five-year average, drawn and tabled', async () => {
    const page = app.page;
    await openReports(page);
    await visible(page.getByRole('heading', { name: 'Reports', level: 1 }));
    await reportShown(page);
    const table = await readTable(page);
    expect(table.head).toEqual([
      'Year',
      'MMWR week',
      'Species',
      'Count',
      'Trap nights',
      'Per trap night',
      'Five-year average',
      'Years in average',
      'vs average (%)',
    ]);
    week = rowWith(table, 'Cx tarsalis', '38')['MMWR week'];
    // Rounded as a person writes them (12.6667 → 12.67; −15.56 % → −16).
    expect(rowWith(table, 'Cx tarsalis', '38')).toEqual({
      Year: String(S),
      'MMWR week': week,
      Species: 'Cx tarsalis',
      Count: '38',
      'Trap nights': '3',
      'Per trap night': '12.67',
      'Five-year average': '15',
      'Years in average': `${S - 2}, ${S - 1}`,
      'vs average (%)': '-16',
    });
    expect(rowWith(table, 'Cx pipiens', '10')).toMatchObject({
      'MMWR week': week,
      'Per trap night': '3.33',
      'Five-year average': '1',
      'vs average (%)': '+233',
    });
    expect(rowWith(table, 'Cx tarsalis', '12')).toMatchObject({
      'Per trap night': '12',
      'Five-year average': '—',
      'vs average (%)': '—',
    });
    // The dash says why: week 28 was not trapped in an earlier season.
    await visible(
      page
        .getByRole('note')
        .filter({ hasText: '“—”: no earlier season has trap collections in that week' }),
    );
    tarsalisStroke = await seriesStroke(page, 'Cx tarsalis');
    // The chart: a line per species and each one's dashed five-year average, named for readers.
    const chart = page.getByTestId('report-chart');
    await expect(chart.getAttribute('role')).resolves.toBe('img');
    await expect(chart.getAttribute('aria-label')).resolves.toMatch(
      /^Mosquitoes per trap night by week, 2 lines; highest 12\.67 \(Cx tarsalis, week \d+\)/,
    );
    await expect(chart.locator('[data-series]').count()).resolves.toBe(4);
    await expect(chart.locator('circle.chart-dot').count()).resolves.toBe(4);
    // Week 27's averages (15 and 1) are single points: drawn as hollow marks.
    await expect(chart.locator('circle.chart-avg-dot').count()).resolves.toBe(2);
    computedText = (await page.getByTestId('report-computed').textContent()) ?? '';
    expect(computedText).toMatch(/^Computed [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s?[AP]M/);
    await inspect('reports');
    // The README's picture (copied by hand to docs/reports-screen.png): the screen from the
    // top to the end of the table, in a viewport tall enough that the bottom navigation is below.
    await page.setViewportSize({ width: 1280, height: 1800 });
    const tableBox = (await page.getByRole('region', { name: 'Report table' }).boundingBox())!;
    await page.screenshot({
      path: join(OUTPUT_DIR, 'reports-readme.png'),
      clip: { x: 0, y: 0, width: 1280, height: tableBox.y + tableBox.height + 16 },
      animations: 'disabled',
    });
    await page.setViewportSize(LANDSCAPE);
  });

  it('downloads the same report as a CSV file', async () => {
    const page = app.page;
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`trapline-abundance-anomaly-${S}.csv`);
    const csv = await readFile((await download.path())!, 'utf8');
    const lines = csv.trim().split('\r\n');
    expect(lines[0]).toBe(
      'Year,Week,Species,Count,TrapEvents,Abundance,FiveYearAvg,YearsInAverage,Delta',
    );
    // The file carries the figures as the server computed them (unformatted doubles).
    const tarsalis = lines.find((l) => l.includes(',Cx tarsalis,38,'));
    expect(tarsalis).toBeDefined();
    const cells = tarsalis!.match(/("[^"]*"|[^,]*)(,|$)/g)!.map((c) => c.replace(/,$/, ''));
    expect(cells.slice(0, 8)).toEqual([
      String(S),
      expect.stringMatching(/^\d+$/),
      'Cx tarsalis',
      '38',
      '3',
      '12.6667',
      '15',
      `"${S - 2},${S - 1}"`,
    ]);
    expect(Number(cells[8])).toBeCloseTo(-15.56, 9);
    await visible(page.getByText(`Downloaded trapline-abundance-anomaly-${S}.csv`));
  });

  it('shows the infection rate with its interval for the chosen estimator', async () => {
    const page = app.page;
    await page.getByRole('radio', { name: 'Infection rate' }).check();
    await page.getByLabel('Estimator').selectOption('mir');
    await expect(page.getByLabel('Target virus').inputValue()).resolves.toBe('WNV');
    await visible(page.getByRole('cell', { name: '26.32' }), 30_000);
    const table = await readTable(page);
    expect(rowWith(table, 'Cx tarsalis')).toMatchObject({
      Year: String(S),
      'Infection rate per 1,000': '26.32',
      '95% CI per 1,000': '0–77.21',
    });
    expect(await seriesStroke(page, 'Cx tarsalis')).toBe(tarsalisStroke);
    // The interval is drawn as a whisker around the point.
    await expect(page.getByTestId('report-chart').locator('.chart-ci').count()).resolves.toBe(1);
    await inspect('reports-infection-rate');
  });

  it('shows the vector index per 1,000 with the CDC figure beside it, on the axis and in the table', async () => {
    const page = app.page;
    await page.getByRole('radio', { name: 'Vector index' }).check();
    await expect(page.getByLabel('Estimator').inputValue()).resolves.toBe('mir');
    // Week 27, Cx tarsalis, all sexes: (30 + 5 + 8) / 3 = 14.3333 per trap night; MIR 26.3158
    // per 1,000 (above); 14.3333 × 1000/38 = 377.1921 per 1,000. Cx pipiens has no pool, so the
    // CDC vector index (per trap night, summed over species) is 377.1921 / 1000 = 0.38.
    await visible(page.getByRole('cell', { name: '377.19' }), 30_000);
    const table = await readTable(page);
    expect(rowWith(table, 'Cx tarsalis', '43')).toMatchObject({
      'Trap nights': '3',
      'Per trap night': '14.33',
      'Infection rate per 1,000': '26.32',
      'Vector index per 1,000': '377.19',
      'CDC vector index, all species': '0.38',
    });
    await visible(page.getByTestId('report-chart'));
    const chart = page.getByTestId('report-chart');
    const axisTitles = await chart.locator('text.chart-axis').allTextContents();
    expect(axisTitles).toEqual(['Vector index per 1,000', 'CDC vector index', 'MMWR week']);
    // The grid's top (400 per 1,000) reads 0.4 on the CDC axis.
    const ticks = await chart.locator('text.chart-tick').allTextContents();
    expect(ticks).toEqual(expect.arrayContaining(['400', '0.4']));
    await expect(chart.getAttribute('aria-label')).resolves.toMatch(
      /^Vector index per 1,000 by week, 2 lines; highest 377\.19 \(Cx tarsalis, week \d+\), CDC vector index, all species, highest 0\.38/,
    );
    await visible(page.locator('.chart-legend').getByText('CDC vector index, all species'));
    expect(await seriesStroke(page, 'Cx tarsalis')).toBe(tarsalisStroke);
    await inspect('reports-vector-index');
  });

  it('labels two-week periods by the MMWR weeks the weekly view shows', async () => {
    const page = app.page;
    await page.getByLabel('Interval').selectOption('Biweek');
    const period = Math.ceil(Number(week) / 2);
    const weeks = `${2 * period - 1}–${2 * period}`;
    expect(weeks).toContain(week);
    await visible(page.getByRole('cell', { name: weeks }), 30_000);
    const table = await readTable(page);
    // Weeks 27 and 28 together: every sex, as the vector index counts them (30 + 5 + 8 + 12).
    expect(rowWith(table, 'Cx tarsalis', weeks)['Count']).toBe('55');
    const chart = page.getByTestId('report-chart');
    await expect(chart.locator('text.chart-tick').allTextContents()).resolves.toContain(weeks);
    await expect(chart.locator('text.chart-axis').allTextContents()).resolves.toContain(
      'MMWR weeks',
    );
    // Reports in the navigation, followed from this screen, keeps this report on screen.
    await openReports(page);
    await expect
      .poll(() => new URL(page.url()).searchParams.get('interval'), { timeout: 15_000 })
      .toBe('Biweek');
    await expect(page.getByRole('radio', { name: 'Vector index' }).isChecked()).resolves.toBe(true);
    await visible(page.getByRole('cell', { name: weeks }));
  });

  it('offers only the seasons that have trap collections', async () => {
    const page = app.page;
    // The anomaly of the first season with data: no earlier season, and the screen says so.
    await page.getByRole('radio', { name: 'Abundance vs 5-year average' }).check();
    const season = page.getByLabel('Season');
    await expect
      .poll(() => season.locator('option').allTextContents(), { timeout: 15_000 })
      .toEqual([String(S), String(S - 1), String(S - 2)]);
    await season.selectOption(String(S - 2));
    await visible(
      page.getByRole('note').filter({
        hasText: `No earlier season (${S - 9}–${S - 3}) has trap collections, so there is no five-year average`,
      }),
      30_000,
    );
    await season.selectOption(String(S));
    await page.getByRole('radio', { name: 'Abundance', exact: true }).check();
    const seasons = page.getByRole('group', { name: 'Seasons' });
    await expect
      .poll(() => seasons.getByRole('checkbox').evaluateAll((boxes) => boxes.length), {
        timeout: 15_000,
      })
      .toBe(3);
    const names = await seasons.locator('label').allTextContents();
    expect(names).toEqual([String(S), String(S - 1), String(S - 2)]);
    // Drawn (so it is the last report viewed, for the test below).
    await expect
      .poll(async () => (await readTable(page)).head, { timeout: 30_000 })
      .toEqual(['Year', 'MMWR weeks', 'Species', 'Count', 'Trap nights', 'Per trap night']);
  });

  it('shows the server’s objection next to the picker it concerns', async () => {
    const page = app.page;
    await page.goto('/reports?report=abundance&year=2300');
    const seasons = page.getByRole('group', { name: 'Seasons' });
    await visible(seasons.getByRole('alert'), 30_000);
    await expect(seasons.getByRole('alert').textContent()).resolves.toMatch(/2200|big|less/i);
    // The banner says it in the app's words (the server's English is for other readers).
    await visible(
      page.getByText('These choices cannot make a report. Check the choices marked above.'),
    );
    await inspectScreen(page, 'reports-objection');
  });

  it('reopens on the last report viewed, offline too, with the kept ones where they are seen', async () => {
    const page = app.page;
    // The last report shown was the abundance by two-week period (the 2300 season drew only an
    // error, which is not worth reopening on). Reports from the navigation opens it again.
    await navigate(page, 'Home');
    await openReports(page);
    await reportShown(page);
    await expect(
      page.getByRole('radio', { name: 'Abundance', exact: true }).isChecked(),
    ).resolves.toBe(true);
    await expect(page.getByLabel('Interval').inputValue()).resolves.toBe('Biweek');
    const computed = page.getByTestId('report-computed');
    await visible(computed.filter({ hasNotText: 'updating' }));
    computedText = (await computed.textContent()) ?? '';
    // Stored on the tablet (the persister writes a moment after the answer) before going offline.
    await expect
      .poll(() => storedComputedTimes(page), { timeout: 15_000 })
      .toContain(`abundance ${computedText.replace('Computed ', '')}`);

    await app.context.setOffline(true);
    await navigate(page, 'Home');
    await page.reload();
    await openReports(page);
    await visible(page.getByText(/You are offline\. This is the report as computed/), 30_000);
    await expect(
      page.getByRole('radio', { name: 'Abundance', exact: true }).isChecked(),
    ).resolves.toBe(true);
    await expect(page.getByTestId('report-computed').textContent()).resolves.toBe(computedText);
    const table = await readTable(page);
    expect(table.head[1]).toBe('MMWR weeks');
    await visible(page.getByTestId('report-chart'));
    await expect(page.getByRole('button', { name: 'Download CSV' }).isDisabled()).resolves.toBe(
      true,
    );
    // The kept reports are listed at the top (folded while one is shown), not under the table.
    const kept = page.getByRole('navigation', { name: 'Reports kept on this tablet' });
    await visible(kept);
    const keptBox = (await kept.boundingBox())!;
    const pickers = (await page.getByRole('group', { name: 'Report', exact: true }).boundingBox())!;
    expect(keptBox.y).toBeLessThan(pickers.y);
    await inspect('reports-offline');

    // A report never opened: the screen says so, and the kept ones are open on the first screen.
    await page.getByLabel('Interval').selectOption('Month');
    await visible(page.getByText(/This report has not been kept on this tablet/));
    await visible(kept.getByRole('link').first());
    // On the first screen, above the bottom navigation, with no scrolling.
    await expect(page.evaluate(() => window.scrollY)).resolves.toBe(0);
    const first = (await kept.getByRole('link').first().boundingBox())!;
    const nav = (await page.getByRole('navigation', { name: 'Main' }).boundingBox())!;
    expect(first.y + first.height).toBeLessThanOrEqual(nav.y);
    await expect(kept.getByRole('link').count()).resolves.toBeGreaterThanOrEqual(4);
    await inspect('reports-offline-not-kept');
    await kept
      .getByRole('link', { name: /Abundance against the five-year average.*by MMWR week/ })
      .click();
    await visible(page.getByRole('cell', { name: '12.67' }));
    await app.context.setOffline(false);
  });
});
