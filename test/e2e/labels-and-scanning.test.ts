import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodePoolLabel } from '../../src/shared/labels/scan-code';
import { ensureAppBuilt } from './harness/build-app';
import type { AppBrowser } from './harness/browser';
import { fakeCameraArgs, writeQrVideo } from './harness/fake-camera';
import {
  createCollectionAtSite,
  createSiteByCoordinates,
  launchSignedIn,
  makePools,
  visible,
} from './harness/field-actions';
import { inspectScreen } from './harness/inspect-screen';
import { pdfPagePng, pdfText } from './harness/pdf-text';
import { screenshot } from './harness/screenshot';
import { startStack, type Stack } from './harness/stack';
import { OUTPUT_DIR } from './harness/paths';
import { localTable, outboxEmpties, TECH } from './harness/sync-checks';

type SyncedPool = { localId: string; serverId: number; number: number };

/** The tablet's pools of a collection with the numbers the office gave them. */
async function syncedPools(page: Page, collectionLocalId: string): Promise<SyncedPool[]> {
  const rows = await localTable(page, 'pools');
  return rows
    .filter((p) => p.parentLocalId === collectionLocalId)
    .map((p) => ({
      localId: String(p.localId),
      serverId: Number(p.serverId),
      number: Number((p.server as { pool_num: unknown }).pool_num),
    }))
    .sort((a, b) => a.number - b.number);
}

/** Keeps a printed PDF beside the screenshots (test/.output), to look at. */
async function keepPdf(name: string, pdf: Buffer): Promise<void> {
  await mkdir(OUTPUT_DIR, { recursive: true });
  await writeFile(join(OUTPUT_DIR, `${name}.pdf`), pdf);
}

/** Scan → "Scan a photo" with a picture (PNG bytes): the scanner reads what the camera would. */
/**
 * How long a scanned photo may take to open its pool. A whole Letter page at 200 dpi is read in
 * about a second on a quiet machine and took longer than vitest's default second of polling on a
 * CI machine running other browser files beside it; the app says "Reading the photo…" meanwhile.
 */
const PHOTO_READ_MS = 30_000;

/** The page a scan opened, or, while still on the scan screen, what that screen says. */
async function whereScanLed(page: Page): Promise<string> {
  const path = new URL(page.url()).pathname;
  if (path !== '/scan') return path;
  const said = await page
    .locator('.scan-message')
    .textContent()
    .catch(() => null);
  return `${path} saying “${said ?? ''}”`;
}

async function scanPicture(page: Page, png: Buffer): Promise<void> {
  await page.goto('/scan');
  await visible(page.getByRole('heading', { name: 'Scan a label or trap tag' }));
  await page
    .getByLabel('Scan a photo')
    .setInputFiles({ name: 'label.png', mimeType: 'image/png', buffer: png });
}

// Issue 39 (2, 3): labels and a lab manifest printed from the tablet, and a scan of a label
// that opens its pool's result entry, from a picture or the camera, with no network.
describe('pool labels, the lab manifest and scanning in Chromium', () => {
  let stack: Stack;
  let app: AppBrowser;
  let collection: string;
  let pools: SyncedPool[];
  let work: string;

  beforeAll(async () => {
    await ensureAppBuilt();
    stack = await startStack();
    app = await launchSignedIn(stack);
    work = await mkdtemp(join(tmpdir(), 'trapline-labels-'));
  });

  afterAll(async () => {
    await app?.dispose();
    await stack?.stop();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('prints no label before the office numbers a pool, and each pool’s label once it has', async () => {
    const page = app.page;
    await app.context.setOffline(true);
    await createSiteByCoordinates(page, {
      code: '739001',
      name: 'Label Slough',
      lat: 38.6,
      lon: -121.5,
    });
    // 100 Cx tarsalis make two pools of 50; 7 Cx pipiens one more.
    collection = await createCollectionAtSite(page, [
      { species: 'Cx tarsalis', sex: 'F-Mixed', count: 100 },
      { species: 'Cx pipiens', sex: 'F-Mixed', count: 7 },
    ]);
    await makePools(page);
    await page.getByRole('link', { name: 'Print labels' }).click();
    await visible(page.getByRole('heading', { name: 'Pool labels' }));

    await visible(page.getByText(/3 pools have no number yet/));
    const waiting = page.getByRole('list', { name: 'Waiting for a number' }).getByRole('listitem');
    await expect.poll(() => waiting.count()).toBe(3);
    await expect.poll(() => waiting.first().textContent()).toMatch(/^New pool 1 not yet numbered/);
    const print = page.getByRole('button', { name: /^Print \d+ labels?$/ });
    expect(await print.textContent()).toBe('Print 0 labels');
    expect(await print.isDisabled()).toBe(true);
    expect(await page.getByRole('region', { name: 'Labels to print' }).count()).toBe(0);
    await inspectScreen(page, 'labels-unnumbered');

    // Back online: the same screen, not reloaded, gets the numbers and the labels.
    await app.context.setOffline(false);
    await outboxEmpties(page);
    pools = await syncedPools(page, collection);
    expect(pools).toHaveLength(3);
    const sheet = page.getByRole('region', { name: 'Labels to print' });
    await expect
      .poll(async () => (await sheet.getByRole('article').allTextContents()).length)
      .toBe(3);
    expect(await print.textContent()).toBe('Print 3 labels');
    expect(await page.getByText(/no number yet/).count()).toBe(0);
    for (const pool of pools) {
      await visible(sheet.getByRole('article', { name: `Pool ${pool.number}`, exact: true }));
    }
    const first = sheet.getByRole('article', { name: `Pool ${pools[0].number}`, exact: true });
    expect(await first.textContent()).toMatch(
      new RegExp(
        `^Pool ${pools[0].number}Cx (tarsalis|pipiens)F-Mixed × (50|7)\\d{4}-\\d{2}-\\d{2}739001$`,
      ),
    );
    await inspectScreen(page, 'labels-sheet');
  });

  it('lays a Letter sheet out as Avery 5160 in print, and its QR reads back as the pool', async () => {
    const page = app.page;
    await page.emulateMedia({ media: 'print' });
    try {
      // Print shows the labels only: no app bar, navigation or controls.
      expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(false);
      expect(await page.getByRole('heading', { name: 'Pool labels' }).isVisible()).toBe(false);
      const sheet = page.getByRole('region', { name: 'Labels to print' });
      const label = sheet.getByRole('article', { name: `Pool ${pools[1].number}`, exact: true });
      const box = await label.boundingBox();
      // 2 5/8 × 1 in at 96 px an inch.
      expect(box?.width).toBeCloseTo(252, 0);
      expect(box?.height).toBeCloseTo(96, 0);
      await screenshot(page, 'labels-print-letter');
      // On paper: the sheet's second label, where Avery 5160 has it (0.5 in from the top,
      // 0.1875 in + one 2.625 in label + a 0.125 in gutter from the left), at 200 dpi.
      const pdf = await page.pdf({ preferCSSPageSize: true });
      await keepPdf('labels-letter', pdf);
      const png = await pdfPagePng(pdf, {
        crop: { x: 0.1875 + 2.625 + 0.125, y: 0.5, width: 2.625, height: 1 },
      });
      await page.emulateMedia({ media: null });
      await scanPicture(page, png);
    } finally {
      await page.emulateMedia({ media: null });
    }
    // The label's QR opened its own pool's test result entry.
    await expect
      .poll(() => whereScanLed(page), { timeout: PHOTO_READ_MS })
      .toBe(`/pools/${pools[1].localId}/tests/new`);
    await expect
      .poll(() => page.locator('p.record-title').textContent())
      .toMatch(new RegExp(`^Pool ${pools[1].number} · `));
    await visible(page.getByRole('form', { name: 'Pool test' }));
  });

  it('prints one label a page for a label printer', async () => {
    const page = app.page;
    await page.goto(`/labels?collection=${collection}`);
    await page.getByRole('radio', { name: /Label printer, 2.25 × 1.25 in/ }).check();
    const pdf = await page.pdf({ preferCSSPageSize: true, printBackground: true });
    await keepPdf('labels-single', pdf);
    const text = await pdfText(pdf);
    // One page a label (form feeds between pages), each with its number.
    const pages = text.split('\f').filter((p) => p.trim() !== '');
    expect(pages, text).toHaveLength(3);
    pools.forEach((pool, i) => expect(pages[i]).toContain(`Pool ${pool.number}`));
    await page.emulateMedia({ media: 'print' });
    await screenshot(page, 'labels-print-single');
    await page.emulateMedia({ media: null });
  });

  it('prints a lab manifest of the shipped pools, as a PDF with their numbers and QR codes', async () => {
    const page = app.page;
    await page.goto(`/labels?collection=${collection}`);
    await page.getByRole('link', { name: 'Lab manifest for these pools' }).click();
    await visible(page.getByRole('heading', { name: 'Lab manifest' }));
    await expect.poll(() => page.getByTestId('manifest-count').textContent()).toBe('3');
    // The last pool stays home: left out of the shipment, it is left off the manifest.
    await page.getByRole('checkbox', { name: `Ship pool ${pools[2].number}` }).uncheck();
    await expect.poll(() => page.getByTestId('manifest-count').textContent()).toBe('2');
    await visible(page.getByRole('button', { name: 'Print manifest (2 pools)' }));
    await inspectScreen(page, 'manifest');

    await page.emulateMedia({ media: 'print' });
    try {
      await screenshot(page, 'manifest-print');
      const pdf = await page.pdf({
        format: 'Letter',
        preferCSSPageSize: true,
        printBackground: true,
      });
      await keepPdf('manifest', pdf);
      const text = await pdfText(pdf);
      expect(text).toContain('Lab manifest');
      expect(text).toContain('Demo Vector Control District');
      const shipped = pools.slice(0, 2).map((p) => p.number);
      for (const n of shipped) expect(text).toMatch(new RegExp(`^\\s*${n}\\s+Cx`, 'm'));
      expect(text).not.toMatch(new RegExp(`^\\s*${pools[2].number}\\s+Cx`, 'm'));
      expect(text).toContain('Received at the lab by, date');
      // A manifest line's QR is the vial's label: the printed page reads back as a shipped pool.
      const png = await pdfPagePng(pdf, { dpi: 200 });
      await page.emulateMedia({ media: null });
      await scanPicture(page, png);
    } finally {
      await page.emulateMedia({ media: null });
    }
    const shippedPaths = pools.slice(0, 2).map((p) => `/pools/${p.localId}/tests/new`);
    await expect
      .poll(
        async () => {
          const led = await whereScanLed(page);
          return shippedPaths.includes(led) ? 'a shipped pool' : led;
        },
        { timeout: PHOTO_READ_MS },
      )
      .toBe('a shipped pool');
    expect(app.pageErrors).toEqual([]);
  });

  it('opens the pool whose label the camera sees, offline, and says so when a code is unknown', async () => {
    const unknownVideo = join(work, 'unknown.y4m');
    await writeQrVideo(unknownVideo, 'HELLO FROM ANOTHER APP');
    const camera = await launchSignedIn(stack, { args: fakeCameraArgs(unknownVideo) });
    try {
      const page = camera.page;
      await page.goto('/scan');
      await visible(page.getByRole('heading', { name: 'Scan a label or trap tag' }));
      await visible(
        page.getByText(/Not a Trapline label or a known trap tag: “HELLO FROM ANOTHER APP”/),
      );
      // Still scanning: the camera is on and the screen stays.
      expect(new URL(page.url()).pathname).toBe('/scan');
      expect(await page.getByLabel('Camera').isVisible()).toBe(true);
      await inspectScreen(page, 'scan');
    } finally {
      await camera.dispose();
    }

    const poolVideo = join(work, 'pool.y4m');
    const pool = pools[2];
    await writeQrVideo(
      poolVideo,
      encodePoolLabel({ agency: TECH.agencyId, poolId: pool.serverId, poolNumber: pool.number }),
    );
    const tablet = await launchSignedIn(stack, { args: fakeCameraArgs(poolVideo) });
    try {
      const page = tablet.page;
      // The office's pools reach this fresh tablet with its first sync.
      await expect
        .poll(
          async () => (await localTable(page, 'pools')).some((p) => p.serverId === pool.serverId),
          {
            timeout: 30_000,
          },
        )
        .toBe(true);
      const local = (await localTable(page, 'pools')).find((p) => p.serverId === pool.serverId);
      await tablet.context.setOffline(true);
      // From Home, where a technician with a vial in hand starts.
      await page.getByRole('link', { name: 'Scan a label', exact: true }).click();
      await expect
        .poll(() => new URL(page.url()).pathname, { timeout: 20_000 })
        .toBe(`/pools/${String(local?.localId)}/tests/new`);
      await expect
        .poll(() => page.locator('p.record-title').textContent())
        .toMatch(new RegExp(`^Pool ${pool.number} · `));
      expect(tablet.pageErrors).toEqual([]);
    } finally {
      await tablet.dispose();
    }
  });
});
