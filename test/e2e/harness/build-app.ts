import { spawn } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { appBuildSettled } from '../../helpers/app-build-status';
import { DIST_DIR, ROOT } from './paths';

/** Newest modification time (ms) under `path` (a file or a folder, recursively). */
function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const name of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, name)));
  return newest;
}

/**
 * Inputs of the client bundle: when any is newer than dist/index.html the app is rebuilt. The
 * lock file too: `npm ci` after a dependency change leaves every source file as it was.
 */
const INPUTS = [
  'src/client',
  'src/shared',
  'public',
  'index.html',
  'vite.config.ts',
  'package-lock.json',
];

export function appIsStale(): boolean {
  if (process.env.TRAPLINE_E2E_DIST) return false;
  const built = join(DIST_DIR, 'index.html');
  if (!existsSync(built) || !existsSync(join(DIST_DIR, 'sw.js'))) return true;
  const builtAt = statSync(built).mtimeMs;
  return INPUTS.some((p) => newestMtime(join(ROOT, p)) > builtAt);
}

export type ViteBuild = {
  /** Resolves when the build has written dist/; rejects with the end of its output if not. */
  done: Promise<void>;
  /**
   * Ends the build if it is still running (a run that ended first: `vitest list`, or every
   * browser file filtered out by a name). A build cut short leaves a dist/ that may look whole
   * without being so, with an index.html and a sw.js and no compressed copies: its index.html
   * goes too, so the next run sees the app as unbuilt. Returns whether it cut one short.
   */
  stop(): boolean;
};

/** Starts `vite build` (its binary, never through npx, so the PID is the build's own). */
export function startViteBuild(): ViteBuild {
  const output: string[] = [];
  const child = spawn(process.execPath, [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build'], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (d: Buffer) => output.push(d.toString()));
  child.stderr.on('data', (d: Buffer) => output.push(d.toString()));
  const done = new Promise<void>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) resolve();
      else
        reject(
          new Error(`vite build failed (exit ${code ?? signal}):\n${output.join('').slice(-4000)}`),
        );
    });
  });
  return {
    done,
    stop() {
      if (child.exitCode !== null || child.signalCode !== null) return false;
      child.kill('SIGKILL');
      rmSync(join(DIST_DIR, 'index.html'), { force: true });
      return true;
    },
  };
}

/**
 * Resolves once dist/ holds the app built from the current sources. A test run builds it once,
 * in the e2e project's global setup (build-app-once.ts), beside the run's first files: this waits
 * for that build. Outside such a run (a bench), or when the sources changed since, it builds the
 * app itself.
 */
export async function ensureAppBuilt(): Promise<void> {
  await appBuildSettled();
  if (!appIsStale()) return;
  await startViteBuild().done;
}
