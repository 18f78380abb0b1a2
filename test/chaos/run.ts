/**
 * `npm run chaos -- --seeds N [--first S] [--sites K] [--photos none|light|full] [--verbose]`: the seeded fault matrix. Runs seeds S …
 * S+N-1 (default 1 … 10) against real servers behind fault proxies, prints one line per seed and
 * a table (with --verbose, every seed's faults and phase times in order), and exits 1 when any record or photo was lost, duplicated, mixed up (wrong) or left
 * stuck, or a server crashed on its own.
 */
import 'fake-indexeddb/auto';
import { DEFAULT_SEED_OPTIONS, formatReport, runMatrix } from './run-matrix';

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const v = Number(process.argv[i + 1]);
  if (!Number.isInteger(v) || v < 0) {
    console.error(`--${name} needs a whole number`);
    process.exit(2);
  }
  return v;
}

const count = option('seeds', 10);
const first = option('first', 1);
const sites = option('sites', DEFAULT_SEED_OPTIONS.sites);
const photosAt = process.argv.indexOf('--photos');
const photos = photosAt < 0 ? DEFAULT_SEED_OPTIONS.photos : process.argv[photosAt + 1];
if (photos !== 'none' && photos !== 'light' && photos !== 'full') {
  console.error('--photos is none, light or full');
  process.exit(2);
}
const seeds = Array.from({ length: count }, (_, i) => first + i);
console.log(
  `chaos: seeds ${first}…${first + count - 1}, ${sites} site(s) of field work each, photos ${photos}`,
);
// Ctrl-C (SIGINT) or SIGTERM ends the run after the seed in progress, with the table of the
// seeds run so far; a second one stops at once.
let stopping = false;
const stop = (signal: string) => {
  if (stopping) process.exit(130);
  stopping = true;
  console.log(`${signal}: stopping after the seed in progress`);
};
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
const report = await runMatrix(
  seeds,
  { ...DEFAULT_SEED_OPTIONS, sites, photos },
  (line) => console.log(line),
  process.argv.includes('--verbose'),
  () => stopping,
);
console.log(`\n${formatReport(report)}`);
const t = report.totals;
const p = report.photos;
const failed =
  t.lost + t.duplicated + t.wrong + t.stuck + t.problems > 0 ||
  p.lost + p.duplicated + p.wrong + p.stuck > 0;
process.exit(failed || report.crashes.length > 0 ? 1 : 0);
