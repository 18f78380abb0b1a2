import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The app build of a test run, started by the e2e project's global setup
 * (test/e2e/harness/build-app-once.ts) beside the first test files instead of before all of them,
 * and waited for only by what serves dist/: the browser files and `npm start` as a process. The
 * state lives in one small file, since the run's workers cannot share a promise with its main
 * process:
 *
 * - `building`: the process `pid` (the run's main process) is writing dist/; nothing may read it.
 * - `built`: dist/ is complete.
 * - `failed`: the build's exit code and the end of its output, for every file that needed it.
 *
 * No file, or one written by a process that is gone (a run killed half-way), means no build of a
 * run is under way: dist/ is whatever is on disk, as before any run started one.
 */
export type AppBuildState =
  | { state: 'building'; pid: number }
  | { state: 'built'; pid: number }
  | { state: 'failed'; pid: number; output: string };

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Under node_modules/.cache, which every checkout has and git ignores. */
export const APP_BUILD_STATUS = join(ROOT, 'node_modules', '.cache', 'trapline', 'app-build.json');

export function writeAppBuildState(state: AppBuildState, file = APP_BUILD_STATUS): void {
  mkdirSync(dirname(file), { recursive: true });
  // Written aside and renamed: a reader never sees half the file.
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, JSON.stringify(state));
  renameSync(partial, file);
}

export function clearAppBuildState(file = APP_BUILD_STATUS): void {
  rmSync(file, { force: true });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but is someone else's.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The state of a run's build, or null when none is under way or recorded (see above). */
export function readAppBuildState(file = APP_BUILD_STATUS): AppBuildState | null {
  if (!existsSync(file)) return null;
  let state: AppBuildState;
  try {
    state = JSON.parse(readFileSync(file, 'utf8')) as AppBuildState;
  } catch {
    return null;
  }
  // Only the run that wrote it speaks for dist/: a state left by a run that is gone says nothing.
  return isAlive(state.pid) ? state : null;
}

function failure(state: Extract<AppBuildState, { state: 'failed' }>): Error {
  return new Error(`the app build of this run failed:\n${state.output}`);
}

/**
 * Resolves once no build of a run is writing dist/ (at once when none is); throws the build's
 * output when it failed. The poll is the only way to hear from another process's build here; it
 * is a quarter of a second against a build of tens of seconds.
 */
export async function appBuildSettled(file = APP_BUILD_STATUS): Promise<void> {
  for (;;) {
    const state = readAppBuildState(file);
    if (state?.state === 'failed') throw failure(state);
    if (state?.state !== 'building') return;
    await new Promise((done) => setTimeout(done, 250));
  }
}

/**
 * The same, blocking the calling thread: for `spawnMain`, whose callers take the child process
 * synchronously. `npm start` builds the app itself when dist/index.html is missing, so starting it
 * while the run's build is emptying and rewriting dist/ would make two builds write one folder.
 * A test file's worker has nothing else to do meanwhile; in a run's usual order the build is long
 * done before a server file starts.
 */
export function appBuildSettledSync(file = APP_BUILD_STATUS): void {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    const state = readAppBuildState(file);
    if (state?.state === 'failed') throw failure(state);
    if (state?.state !== 'building') return;
    Atomics.wait(pause, 0, 0, 250);
  }
}
