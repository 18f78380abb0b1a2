import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../src/server/main';
import { cookieFrom, http } from './bff/helpers/http';

let child: ChildProcess | undefined;
const dataDir = mkdtempSync(join(tmpdir(), 'trapline-start-'));

afterAll(() => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

/** Collects stdout until `pattern` matches. */
function waitFor(proc: ChildProcess, pattern: RegExp, timeoutMs: number): Promise<string> {
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`timed out; output so far:\n${out}`)),
      timeoutMs,
    );
    const onData = (chunk: Buffer) => {
      out += chunk.toString('utf8');
      if (pattern.test(out)) {
        clearTimeout(timer);
        resolve(out);
      }
    };
    proc.stdout?.on('data', onData);
    proc.stderr?.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    proc.on('exit', (code) => reject(new Error(`exited ${code}:\n${out}`)));
  });
}

describe('npm start (src/server/main.ts)', () => {
  it('starts records service and BFF, prints the URL and the demo sign-in, and stops on SIGTERM', async () => {
    child = spawn(join(ROOT, 'node_modules', '.bin', 'tsx'), ['src/server/main.ts'], {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: '0',
        RECORDS_PORT: '0',
        TRAPLINE_DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out = await waitFor(child, /Demo password: (\S+)/, 170_000);
    const url = /Trapline is running at (http:\/\/\S+)/.exec(out)?.[1] ?? '';
    const password = /Demo password: (\S+)/.exec(out)?.[1] ?? '';
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    const shell = await http(`${url}/`);
    expect(shell.status, out).toBe(200);
    expect(shell.text).toContain('<div id="root">');
    const signIn = await http(`${url}/api/session`, {
      method: 'POST',
      headers: { 'x-csrf': '1', origin: url },
      body: { username: 'demo-tech', password },
    });
    expect(signIn.status, signIn.text).toBe(200);
    const sites = await http(`${url}/api/v1/site`, {
      headers: { 'x-csrf': '1', cookie: cookieFrom(signIn) ?? '' },
    });
    expect(sites.json<{ rows: unknown[] }>().rows.length).toBeGreaterThan(1);

    // Everything the process prints from here, for the failure message: a failure seen only
    // under heavy load left no trace of why.
    let after = '';
    child.stdout?.on('data', (chunk: Buffer) => (after += chunk.toString('utf8')));
    child.stderr?.on('data', (chunk: Buffer) => (after += chunk.toString('utf8')));
    const exited = new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
      child?.on('exit', (code, signal) => resolve([code, signal])),
    );
    child.kill('SIGTERM');
    expect(await exited, `exit code and signal; output after the banner:\n${after}`).toEqual([
      0,
      null,
    ]);
  }, 200_000);
});
