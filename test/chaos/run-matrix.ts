import { startChaosStack, noFaults, type FaultCounts } from './chaos-stack';
import { FAULT_KINDS } from './fault-plan';
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
  };
  faults: FaultCounts;
  /** Server exits nobody caused. */
  crashes: string[];
  seconds: number;
};

export const DEFAULT_SEED_OPTIONS: SeedOptions = { sites: 2, chaosMs: 30_000, calmMs: 150_000 };

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
      progress(
        `seed ${seed}: ${r.entries} entries, lost ${r.lost}, duplicated ${r.duplicated}, wrong ${r.wrong}, ` +
          `stuck ${r.stuck}; requests ${r.requests.edge}/${r.requests.upstream} (undealt ${r.requests.undealt}); ${r.seconds.toFixed(1)} s (calm ${r.calmSeconds.toFixed(1)} s); ${applied}`,
      );
      for (const d of r.details.slice(0, 20)) progress(`  ${d}`);
      // A failing seed's faults, in order, so it can be read (and re-run with --first).
      if (verbose || r.details.length > 0) for (const t of r.timeline) progress(`    ${t}`);
    }
  } finally {
    await stack.close();
  }
  const sum = (f: (r: SeedResult) => number) => results.reduce((s, r) => s + f(r), 0);
  const faults = noFaults();
  for (const r of results) for (const k of FAULT_KINDS) faults[k] += r.faults[k];
  return {
    results,
    totals: {
      runs: results.length,
      entries: sum((r) => r.entries),
      lost: sum((r) => r.lost),
      duplicated: sum((r) => r.duplicated),
      wrong: sum((r) => r.wrong),
      stuck: sum((r) => r.stuck),
    },
    faults,
    crashes: stack.crashes(),
    seconds: (Date.now() - started) / 1000,
  };
}

/** The report as printed: the totals, the faults injected, failing seeds, crashes. */
export function formatReport(report: MatrixReport): string {
  const t = report.totals;
  const failing = report.results.filter((r) => r.lost + r.duplicated + r.wrong + r.stuck > 0);
  const slowest = Math.max(0, ...report.results.map((r) => r.calmSeconds));
  return [
    formatTable(
      ['runs', 'entries', 'lost', 'duplicated', 'wrong', 'stuck'],
      [[t.runs, t.entries, t.lost, t.duplicated, t.wrong, t.stuck]],
    ),
    '',
    formatTable(
      ['fault', 'injected'],
      FAULT_KINDS.map((k) => [k, report.faults[k]]),
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
