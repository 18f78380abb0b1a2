import { startChaosStack, noFaults, type FaultCounts } from './chaos-stack';
import { FAULT_KINDS, PHOTO_FAULT_KINDS } from './fault-plan';
import { formatTable } from './print-table';
import { runSeed, type SeedOptions, type SeedResult } from './run-seed';

export type MatrixReport = {
  results: SeedResult[];
  totals: {
    runs: number;
    entries: number;
    lost: number;
    duplicated: number;
    wrong: number;
    stuck: number;
    /** Steps of the field work that failed (see SeedResult.problems). */
    problems: number;
  };
  /** The photos' verdict summed over the seeds (compare-photos). */
  photos: {
    photos: number;
    bytes: number;
    waited: number;
    lost: number;
    duplicated: number;
    wrong: number;
    stuck: number;
  };
  faults: FaultCounts;
  /** Faults that struck photo uploads (counted apart from the record traffic's). */
  photoFaults: FaultCounts;
  /** Server exits nobody caused. */
  crashes: string[];
  seconds: number;
};

export const DEFAULT_SEED_OPTIONS: SeedOptions = {
  sites: 2,
  chaosMs: 30_000,
  calmMs: 150_000,
  photos: 'full',
};

/** Runs the seeds one after another on one chaos stack (servers started once). */
export async function runMatrix(
  seeds: number[],
  options: SeedOptions = DEFAULT_SEED_OPTIONS,
  progress: (line: string) => void = () => undefined,
  verbose = false,
  /** Checked between seeds: true ends the run there, and the report covers the seeds run. */
  shouldStop: () => boolean = () => false,
): Promise<MatrixReport> {
  const started = Date.now();
  const stack = await startChaosStack();
  progress(`servers up in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const results: SeedResult[] = [];
  try {
    for (const seed of seeds) {
      if (shouldStop()) break;
      const r = await runSeed(stack, seed, options);
      results.push(r);
      const applied = FAULT_KINDS.filter((k) => r.faults[k] > 0)
        .map((k) => `${k}×${r.faults[k]}`)
        .join(' ');
      const onPhotos = PHOTO_FAULT_KINDS.filter((k) => r.photoFaults[k] > 0)
        .map((k) => `${k}×${r.photoFaults[k]}`)
        .join(' ');
      const p = r.photos;
      progress(
        `seed ${seed}: ${r.entries} entries, lost ${r.lost}, duplicated ${r.duplicated}, wrong ${r.wrong}, ` +
          `stuck ${r.stuck}; requests ${r.requests.edge}/${r.requests.upstream}/${r.requests.uploads} (undealt ${r.requests.undealt}); ${r.seconds.toFixed(1)} s (calm ${r.calmSeconds.toFixed(1)} s); ${applied}`,
      );
      progress(
        `  photos ${p.photos} (${kb(p.bytes)}, ${p.waited} waited for their record), lost ${p.lost}, duplicated ${p.duplicated}, wrong ${p.wrong}, stuck ${p.stuck}; on uploads: ${onPhotos}`,
      );
      const details = [...r.details, ...p.details];
      for (const d of details.slice(0, 20)) progress(`  ${d}`);
      // A failing seed's faults, in order, so it can be read (and re-run with --first).
      if (verbose || details.length > 0) for (const t of r.timeline) progress(`    ${t}`);
    }
  } finally {
    await stack.close();
  }
  const sum = (f: (r: SeedResult) => number) => results.reduce((s, r) => s + f(r), 0);
  const faults = noFaults();
  const photoFaults = noFaults();
  for (const r of results) {
    for (const k of FAULT_KINDS) {
      faults[k] += r.faults[k];
      photoFaults[k] += r.photoFaults[k];
    }
  }
  return {
    results,
    totals: {
      runs: results.length,
      entries: sum((r) => r.entries),
      lost: sum((r) => r.lost),
      duplicated: sum((r) => r.duplicated),
      wrong: sum((r) => r.wrong),
      stuck: sum((r) => r.stuck),
      problems: sum((r) => r.problems),
    },
    photos: {
      photos: sum((r) => r.photos.photos),
      bytes: sum((r) => r.photos.bytes),
      waited: sum((r) => r.photos.waited),
      lost: sum((r) => r.photos.lost),
      duplicated: sum((r) => r.photos.duplicated),
      wrong: sum((r) => r.photos.wrong),
      stuck: sum((r) => r.photos.stuck),
    },
    faults,
    photoFaults,
    crashes: stack.crashes(),
    seconds: (Date.now() - started) / 1000,
  };
}

const kb = (bytes: number) => `${Math.round(bytes / 1024).toLocaleString('en-US')} KB`;

/** Whether a seed lost, duplicated, mixed up or stranded a record or a photo. */
export const seedFailed = (r: SeedResult) =>
  r.lost + r.duplicated + r.wrong + r.stuck + r.problems > 0 ||
  r.photos.lost + r.photos.duplicated + r.photos.wrong + r.photos.stuck > 0;

/** The report as printed: the totals, the faults injected, failing seeds, crashes. */
export function formatReport(report: MatrixReport): string {
  const t = report.totals;
  const p = report.photos;
  const failing = report.results.filter(seedFailed);
  const slowest = Math.max(0, ...report.results.map((r) => r.calmSeconds));
  return [
    formatTable(
      ['runs', 'entries', 'lost', 'duplicated', 'wrong', 'stuck', 'failed steps'],
      [[t.runs, t.entries, t.lost, t.duplicated, t.wrong, t.stuck, t.problems]],
    ),
    '',
    formatTable(
      ['photos', 'bytes', 'waited for record', 'lost', 'duplicated', 'wrong', 'stuck'],
      [[p.photos, kb(p.bytes), p.waited, p.lost, p.duplicated, p.wrong, p.stuck]],
    ),
    '',
    formatTable(
      ['fault', 'injected', 'on uploads'],
      FAULT_KINDS.map((k) => [k, report.faults[k], report.photoFaults[k]]),
    ),
    '',
    `sign-ins after a token expired: ${report.results.reduce((s, r) => s + r.signIns, 0)}`,
    `longest calm settle: ${slowest.toFixed(1)} s; total ${report.seconds.toFixed(1)} s, ` +
      `${(report.results.reduce((s, r) => s + r.seconds, 0) / Math.max(1, t.runs)).toFixed(1)} s per seed`,
    failing.length > 0
      ? `failing seeds: ${failing.map((r) => r.seed).join(', ')}`
      : 'failing seeds: none',
    ...(report.crashes.length > 0 ? ['server crashes:', ...report.crashes] : []),
  ].join('\n');
}
