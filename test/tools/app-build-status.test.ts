import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  appBuildSettled,
  appBuildSettledSync,
  readAppBuildState,
  writeAppBuildState,
} from '../helpers/app-build-status';

/**
 * A run's app build goes on beside its first test files (test/e2e/harness/build-app-once.ts):
 * what serves dist/ must wait for it, hear of its failure, and never wait on a run that is gone.
 */
describe('the state of a run’s app build', () => {
  let dir: string;
  let file: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'trapline-app-build-'));
    file = join(dir, 'app-build.json');
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('lets the browser files start at once when no run is building', async () => {
    await expect(appBuildSettled(file)).resolves.toBeUndefined();
    expect(() => appBuildSettledSync(file)).not.toThrow();
  });

  it('holds them while the build runs and lets them go when it has written dist/', async () => {
    writeAppBuildState({ state: 'building', pid: process.pid }, file);
    let settled = false;
    const waiting = appBuildSettled(file).then(() => (settled = true));
    await new Promise((done) => setTimeout(done, 600));
    expect(settled).toBe(false);
    writeAppBuildState({ state: 'built', pid: process.pid }, file);
    await waiting;
    expect(settled).toBe(true);
  });

  it('fails each of them with the build’s own output when the build failed', async () => {
    const output = 'vite build failed (exit 1):\nsrc/client/main.tsx: Unexpected token';
    writeAppBuildState({ state: 'failed', pid: process.pid, output }, file);
    await expect(appBuildSettled(file)).rejects.toThrow(/Unexpected token/);
    expect(() => appBuildSettledSync(file)).toThrow(/Unexpected token/);
  });

  it('ignores what a run that is gone left behind (killed half-way through its build)', async () => {
    const gone = spawn(process.execPath, ['-e', '']);
    const pid = gone.pid as number;
    await new Promise((done) => gone.on('exit', done));
    writeAppBuildState({ state: 'building', pid }, file);
    expect(readAppBuildState(file)).toBeNull();
    await expect(appBuildSettled(file)).resolves.toBeUndefined();
    expect(() => appBuildSettledSync(file)).not.toThrow();
  });
});
