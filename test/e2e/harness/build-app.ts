import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
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

/** Inputs of the client bundle: when any is newer than dist/index.html the app is rebuilt. */
const INPUTS = ['src/client', 'src/shared', 'public', 'index.html', 'vite.config.ts'];

export function appIsStale(): boolean {
  const built = join(DIST_DIR, 'index.html');
  if (!existsSync(built) || !existsSync(join(DIST_DIR, 'sw.js'))) return true;
  const builtAt = statSync(built).mtimeMs;
  return INPUTS.some((p) => newestMtime(join(ROOT, p)) > builtAt);
}

/**
 * Builds the app with Vite (its binary, never through npx) when dist/ is missing or older than
 * its sources. Runs once per test file at most; a fresh dist/ makes it a no-op.
 */
export async function ensureAppBuilt(): Promise<void> {
  if (process.env.TRAPLINE_E2E_DIST || !appIsStale()) return;
  const output: string[] = [];
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'node_modules/vite/bin/vite.js'), 'build'], {
      cwd: ROOT,
      env: { ...process.env, NODE_ENV: 'production' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (d: Buffer) => output.push(d.toString()));
    child.stderr.on('data', (d: Buffer) => output.push(d.toString()));
    child.on('error', reject);
    child.on('close', resolve);
  });
  if (code !== 0)
    throw new Error(`vite build failed (exit ${code}):\n${output.join('').slice(-4000)}`);
}
