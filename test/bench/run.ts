/**
 * `npm run bench`: runs every `test/bench/*-bench.ts` module's exported `bench*` functions in
 * turn and prints one table of figures and ratios. Benchmarks print; they never assert a time.
 * Pass names to run a subset: `npm run bench -- records sync`.
 */
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export type BenchRow = { name: string; value: number; unit: string };

const here = dirname(fileURLToPath(import.meta.url));
const filter = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith('-bench.ts'))
  .filter((f) => filter.length === 0 || filter.some((w) => f.includes(w)))
  .sort();

const rows: Array<BenchRow & { bench: string }> = [];
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
const width = Math.max(10, ...rows.map((r) => r.name.length));
console.log(`\n${'figure'.padEnd(width)}  ${'value'.padStart(10)}  unit`);
console.log(`${'-'.repeat(width)}  ${'-'.repeat(10)}  ----`);
for (const r of rows)
  console.log(`${r.name.padEnd(width)}  ${fmt(r.value).padStart(10)}  ${r.unit}`);
process.exit(0);
