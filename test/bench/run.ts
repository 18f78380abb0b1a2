/**
 * `npm run bench`: runs every `test/bench/*-bench.ts` module's exported `bench*` functions in
 * turn and prints one table of figures and ratios. Benchmarks print; they never assert a time.
 * Pass names to run a subset: `npm run bench -- records sync`.
 */
import { readdirSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { freshPageMicros } from './fresh-memory';

/**
 * One printed figure. A row with a `goal` is one of the issues' targets: the table says whether
 * this run met it. `note` carries what a reader needs to trust the figure (e.g. each round's
 * value, so the spread is visible next to the median).
 */
export type BenchRow = {
  name: string;
  value: number;
  unit: string;
  goal?: { atMost: number } | { atLeast: number };
  note?: string;
};

const here = dirname(fileURLToPath(import.meta.url));
const filter = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith('-bench.ts'))
  .filter((f) => filter.length === 0 || filter.some((w) => f.includes(w)))
  .sort();

const rows: Array<BenchRow & { bench: string }> = [];
const loadAtStart = loadavg();
for (const file of files) {
  const mod = (await import(pathToFileURL(join(here, file)).href)) as Record<string, unknown>;
  for (const [name, fn] of Object.entries(mod)) {
    if (!name.startsWith('bench') || typeof fn !== 'function') continue;
    process.stderr.write(`running ${file} ${name} …\n`);
    const started = Date.now();
    const result = (await (fn as () => Promise<BenchRow[]>)()) ?? [];
    for (const r of result) rows.push({ ...r, bench: name });
    process.stderr.write(`  done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  }
}

const fmt = (v: number) =>
  Math.abs(v) >= 100 ? v.toFixed(0) : Math.abs(v) >= 10 ? v.toFixed(1) : v.toFixed(2);
const goalText = (g: BenchRow['goal']) =>
  !g ? '' : 'atMost' in g ? `≤ ${fmt(g.atMost)}` : `≥ ${fmt(g.atLeast)}`;
const met = (r: BenchRow) =>
  !r.goal
    ? ''
    : ('atMost' in r.goal ? r.value <= r.goal.atMost : r.value >= r.goal.atLeast)
      ? 'met'
      : 'NOT MET';
const width = Math.max(10, ...rows.map((r) => r.name.length));
const unitWidth = Math.max(4, ...rows.map((r) => r.unit.length));
console.log(
  `\n${'figure'.padEnd(width)}  ${'value'.padStart(10)}  ${'unit'.padEnd(unitWidth)}  ${'goal'.padEnd(8)}  result`,
);
console.log(`${'-'.repeat(width)}  ${'-'.repeat(10)}  ${'-'.repeat(unitWidth)}  --------  ------`);
for (const r of rows) {
  console.log(
    `${r.name.padEnd(width)}  ${fmt(r.value).padStart(10)}  ${r.unit.padEnd(unitWidth)}  ${goalText(r.goal).padEnd(8)}  ${met(r)}`.trimEnd(),
  );
  if (r.note) console.log(`${''.padEnd(width)}  ${r.note}`);
}
const goals = rows.filter((r) => r.goal);
if (goals.length > 0)
  console.log(
    `\n${goals.filter((r) => met(r) === 'met').length} of ${goals.length} goals met. ` +
      `Load average (1, 5, 15 min): ${loadAtStart.map((l) => l.toFixed(2)).join(', ')} at the start, ` +
      `${loadavg()
        .map((l) => l.toFixed(2))
        .join(', ')} at the end (${cpus().length} cores). Fresh memory: ` +
      // Measured after the benchmarks: its 768 MiB of garbage is not collected inside one.
      `${freshPageMicros().toFixed(2)} µs a page (test/bench/fresh-memory.ts: under 1 on a plain machine).`,
  );
process.exit(0);
