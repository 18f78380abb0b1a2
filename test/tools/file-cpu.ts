import { appendFileSync } from 'node:fs';
import { afterAll, expect } from 'vitest';
import { statTimes, TICKS_PER_SECOND } from '../bench/process-cpu';

/**
 * TRAPLINE_FILE_CPU=<file>: each test file's CPU-seconds, a line `<seconds> <test file>` appended to
 * <file> at the test file's end (vite.config.ts loads this setup file only then).
 * Vitest's own durations are wall time, and its "environment" figure is the worker's one set-up
 * reported again against every file that worker runs (a sum over files counts it many times).
 * Here: this worker process's CPU (its threads: a BFF's report worker too) and that of the
 * children it has reaped (spawned servers and CLIs, Chromium once closed), from /proc/self/stat.
 * A file's hooks close what they start, so what it spawned is reaped before this file-level
 * afterAll (a setup file's hooks are the outermost: registered first, run last). The first file
 * a worker runs also carries the worker's own start (its shared modules, jsdom, PGlite's
 * WebAssembly). Linux only (/proc); clock ticks of 10 ms, as on Debian.
 */
function cpuSeconds(): number {
  const [utime, stime, cutime, cstime] = statTimes('self');
  return (utime + stime + cutime + cstime) / TICKS_PER_SECOND;
}

// Setup files run before each test file is imported (with shared modules too): its imports count.
const startedAt = cpuSeconds();
afterAll(() => {
  const file = expect.getState().testPath ?? '';
  // Set: vite.config.ts loads this file only then.
  const out = process.env.TRAPLINE_FILE_CPU!;
  const seconds = (cpuSeconds() - startedAt).toFixed(1);
  appendFileSync(out, `${seconds} ${file.replace(/.*\/test\//, 'test/')}\n`);
});
