import { appendFileSync, readFileSync } from 'node:fs';
import { afterAll, expect } from 'vitest';

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
const TICKS_PER_SECOND = 100;

function cpuSeconds(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  // Fields after the command name (which may hold spaces) in parentheses; utime is field 14.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const [utime, stime, cutime, cstime] = fields.slice(11, 15).map(Number);
  return (utime + stime + cutime + cstime) / TICKS_PER_SECOND;
}

// Setup files run before each test file is imported (with shared modules too): its imports count.
const startedAt = cpuSeconds();
afterAll(() => {
  const file = expect.getState().testPath ?? '';
  const out = process.env.TRAPLINE_FILE_CPU;
  if (!out) return;
  const seconds = (cpuSeconds() - startedAt).toFixed(1);
  appendFileSync(out, `${seconds} ${file.replace(/.*\/test\//, 'test/')}\n`);
});
