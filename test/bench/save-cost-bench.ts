/**
 * What the app's save costs over the write itself (issue 13, item 4), in Chromium: saving a
 * collection of 50 abundance rows through the app's real save path (createCollection: validate
 * with the shared schema, read the site and its queued entries, write the record and its create
 * entry in one strict-durability transaction) against a raw Dexie write of the same two objects
 * in one transaction on the same database (strict durability too), in interleaved rounds.
 * Goal: the save ≤ 1.5× the raw write (median).
 *
 * The page imports the app's modules from a Vite dev server over this repository (the built app
 * exposes none), on a blank page of that origin: nothing else runs in it.
 * `npm run bench -- save-cost`.
 */
import { chromium } from 'playwright-core';
import { createServer } from 'vite';
import { SPECIES, SEX_ID, TRAP_ID, PRECISION_ID } from '../../src/server/records/seed/lookup-data';
import { CHROMIUM, CHROMIUM_ARGS } from '../e2e/harness/browser';
import type { BenchRow } from './run';

const ROUNDS = Number(process.env.SAVE_ROUNDS ?? 20);
const SAVES_PER_ROUND = 10;
const ROWS = 50;

/** 50 distinct species × sex rows (no F-Mixed, which may not sit beside other female conditions). */
const SEXES = [SEX_ID.fUnfed, SEX_ID.fBloodfed, SEX_ID.fGravid, SEX_ID.male, SEX_ID.other];
const collection = {
  collection_date: '2026-07-14T06:30:00-07:00',
  num_trap: 1,
  trap: TRAP_ID.co2,
  trap_nights: 1,
  arthropods: Array.from({ length: ROWS }, (_, i) => ({
    species: SPECIES[Math.floor(i / SEXES.length)].id,
    sex: SEXES[i % SEXES.length],
    num_count: 1 + ((i * 7) % 90),
  })),
};
const site = {
  code: '300001',
  name: 'Save cost',
  coordinate_precision: PRECISION_ID.gps,
  shape: { type: 'Point', coordinates: [-121.49, 38.58] },
};

// A string: tsx would add its __name helper to functions, which the page lacks. Returns each
// save's milliseconds, app and raw, for ROUNDS rounds that alternate which goes first.
const MEASURE = `(async ([collection, site, rounds, perRound]) => {
  const { TraplineDb } = await import('/src/client/db/database.ts');
  const { createSite } = await import('/src/client/db/create-site.ts');
  const { createCollection } = await import('/src/client/db/create-collection.ts');
  const db = new TraplineDb('trapline-bench-save-cost');
  await db.delete();
  await db.open();
  const siteId = await createSite(db, site);
  const app = async () => {
    const t = performance.now();
    await createCollection(db, siteId, collection);
    return performance.now() - t;
  };
  // The same two objects the app writes, fresh ids each time, written as they are.
  const [sampleRow] = await db.collections.toArray();
  const sampleEntry = (await db.outbox.toArray()).find((e) => e.entity === 'collection');
  const raw = async () => {
    const row = { ...sampleRow, localId: crypto.randomUUID(), data: structuredClone(collection) };
    const entry = { ...sampleEntry, id: crypto.randomUUID(), localId: row.localId,
      payload: structuredClone(collection), createdAt: Date.now() };
    const t = performance.now();
    await db.transaction('rw', db.collections, db.outbox, async () => {
      await db.collections.add(row);
      await db.outbox.add(entry);
    });
    return performance.now() - t;
  };
  for (let i = 0; i < 5; i += 1) { await app(); await raw(); } // warm-up
  const out = { app: [], raw: [] };
  for (let r = 0; r < rounds; r += 1) {
    const order = r % 2 === 0 ? [['app', app], ['raw', raw]] : [['raw', raw], ['app', app]];
    for (const [name, fn] of order) for (let i = 0; i < perRound; i += 1) out[name].push(await fn());
  }
  db.close();
  await db.delete();
  return out;
})`;

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};

export async function benchSaveCost(): Promise<BenchRow[]> {
  const vite = await createServer({
    server: { port: 0, host: '127.0.0.1' },
    logLevel: 'silent',
    // Bundle the page's dependencies before it asks: a discovery mid-run reloads the page.
    optimizeDeps: { include: ['dexie', 'zod'] },
  });
  await vite.listen();
  const origin = vite.resolvedUrls?.local[0]?.replace(/\/$/, '');
  if (!origin) throw new Error('the Vite dev server has no address');
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage();
    // A blank page of the dev server's origin, so the app's modules import from it. Isolated
    // (COOP + COEP): otherwise performance.now() is coarsened to 0.1 ms, a tenth of a save, and
    // one tick moved the ratio by 0.14 (1.29 or 1.43 for the same code).
    await page.route(`${origin}/__bench`, (route) =>
      route.fulfill({
        contentType: 'text/html',
        headers: {
          'Cross-Origin-Opener-Policy': 'same-origin',
          'Cross-Origin-Embedder-Policy': 'require-corp',
        },
        body: '<!doctype html><title>bench</title>',
      }),
    );
    await page.goto(`${origin}/__bench`);
    if (!(await page.evaluate('crossOriginIsolated')))
      throw new Error('the bench page is not cross-origin isolated: its clock would be coarse');
    const times = await page.evaluate<{ app: number[]; raw: number[] }>(
      `${MEASURE}(${JSON.stringify([collection, site, ROUNDS, SAVES_PER_ROUND])})`,
    );
    const median = { app: quantile(times.app, 0.5), raw: quantile(times.raw, 0.5) };
    const p99 = { app: quantile(times.app, 0.99), raw: quantile(times.raw, 0.99) };
    const saves = `${times.app.length} saves each, ${ROUNDS} interleaved rounds`;
    return [
      { name: 'save 50-row collection: app save, median', value: median.app, unit: 'ms' },
      { name: 'save 50-row collection: raw Dexie write, median', value: median.raw, unit: 'ms' },
      { name: 'save 50-row collection: app save, p99', value: p99.app, unit: 'ms' },
      { name: 'save 50-row collection: raw Dexie write, p99', value: p99.raw, unit: 'ms' },
      {
        name: 'save 50-row collection: app / raw (median)',
        value: median.app / median.raw,
        unit: 'x',
        goal: { atMost: 1.5 },
        note: `${saves}; p99 ratio ${(p99.app / p99.raw).toFixed(2)}`,
      },
    ];
  } finally {
    await browser.close();
    await vite.close();
  }
}
