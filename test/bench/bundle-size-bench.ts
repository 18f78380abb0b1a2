/**
 * What a tablet downloads on one bar of signal: the gzip size of the JavaScript that index.html
 * loads before the first screen (entry + modulepreloads), and of the map chunk loaded only when a
 * map is first shown; and the initial JavaScript's bytes as the BFF sends them (the build's
 * brotli copies). Builds the app first when dist/ is missing or older than src/.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { BenchRow } from './run';

const ROOT = resolve(import.meta.dirname, '../..');
const DIST = join(ROOT, 'dist');
/** The size the initial JavaScript should stay under (gzip; issue 13), so a first load on 3G is seconds. */
const INITIAL_BUDGET_KB = 150;

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

function ensureBuilt(): void {
  const index = join(DIST, 'index.html');
  if (existsSync(index) && statSync(index).mtimeMs >= newestMtime(join(ROOT, 'src'))) return;
  execFileSync(join(ROOT, 'node_modules/.bin/vite'), ['build', '--logLevel', 'warn'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
}

const gzipKb = (file: string) =>
  gzipSync(readFileSync(join(DIST, file)), { level: 9 }).length / 1024;

/**
 * What the BFF sends a browser that accepts brotli (every browser a tablet runs): the build's
 * .br copy of the file (src/server/bff/compressed-copies.ts), or the file itself where it has
 * none.
 */
const sentKb = (file: string) => {
  const copy = join(DIST, `${file}.br`);
  return statSync(existsSync(copy) ? copy : join(DIST, file)).size / 1024;
};
const rawKb = (file: string) => statSync(join(DIST, file)).size / 1024;

export async function benchBundleSize(): Promise<BenchRow[]> {
  ensureBuilt();
  const html = readFileSync(join(DIST, 'index.html'), 'utf8');
  const initial = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]);
  const assets = readdirSync(join(DIST, 'assets'));
  const mapChunks = assets
    .filter((f) => /^(base-map|sites-map|location-picker)-.*\.(js|css)$/.test(f))
    .map((f) => `assets/${f}`);
  const initialKb = initial.reduce((sum, f) => sum + gzipKb(f), 0);
  const mapKb = mapChunks.reduce((sum, f) => sum + gzipKb(f), 0);
  const allJsKb = assets
    .filter((f) => f.endsWith('.js'))
    .reduce((sum, f) => sum + gzipKb(`assets/${f}`), 0);
  return [
    {
      name: 'initial JS (gzip)',
      value: initialKb,
      unit: `KiB, ${initial.length} files`,
      goal: { atMost: INITIAL_BUDGET_KB },
    },
    {
      name: 'initial JS / budget',
      value: initialKb / INITIAL_BUDGET_KB,
      unit: `× ${INITIAL_BUDGET_KB} KiB`,
    },
    {
      name: 'initial JS as the BFF sends it (brotli copies)',
      value: initial.reduce((sum, f) => sum + sentKb(f), 0),
      unit: `KiB, ${initial.reduce((sum, f) => sum + rawKb(f), 0).toFixed(0)} KiB uncompressed`,
    },
    { name: 'map chunk JS+CSS (gzip)', value: mapKb, unit: `KiB, ${mapChunks.length} files` },
    { name: 'all JS chunks (gzip)', value: allJsKb, unit: 'KiB' },
  ];
}
