import { execFile } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { nodeArgs } from './node-process';

/** `npm run records`'s entry point. */
export const RECORDS_CLI = resolve(
  dirname(fileURLToPath(import.meta.url)),
  '../../src/server/records/cli.ts',
);

export type CliRun = { code: number; stdout: string; stderr: string };

const run = promisify(execFile);

/**
 * Runs `npm run records -- <args>` to its end, as a process of its own (nodeArgs), with `env` over
 * the test's environment: its exit code and what it printed, whatever the code.
 */
export function runRecordsCli(env: Record<string, string>, ...args: string[]): Promise<CliRun> {
  return run(process.execPath, nodeArgs(RECORDS_CLI, ...args), {
    env: { ...process.env, ...env },
    timeout: 60_000,
  }).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: CliRun) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );
}
