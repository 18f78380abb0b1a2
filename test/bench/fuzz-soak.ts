/**
 * `npm run soak -- --requests 10000 --seed 1`: the fuzz/soak run over every route of the records
 * service and the BFF, straight and through the BFF, over real HTTP on real PGlite; prints the
 * table of figures and every failure with a request that reproduces it. Exit code 1 when any
 * request got a 5xx, hung, lost its connection or broke the contract, or an invariant broke.
 * Options: --requests N (10000), --seed S (random, printed), --concurrency C (8),
 * --timeout-ms T (15000).
 */
import { runSoak } from './fuzz/run-soak';
import { formatReport, soakPassed } from './fuzz/report-table';

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const v = Number(process.argv[i + 1]);
  if (!Number.isFinite(v)) throw new Error(`--${name} needs a number`);
  return v;
}

const seed = option('seed', Math.floor(Math.random() * 2 ** 31));
const report = await runSoak({
  requests: option('requests', 10_000),
  seed,
  concurrency: option('concurrency', 8),
  timeoutMs: option('timeout-ms', 15_000),
  log: (line) => process.stderr.write(`${line}\n`),
});
console.log(formatReport(report));
process.exit(soakPassed(report) ? 0 : 1);
