import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { appBuildSettledSync } from './app-build-status';
import { migratedDataDir } from './migrated-data-dir';
import { nodeArgs } from './node-process';

/** The project's root, where `npm start` runs (not imported from the server: jsdom files use this). */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const MAIN = 'src/server/main.ts';

export type SpawnedMain = {
  child: ChildProcess;
  /** Everything written to stdout and stderr so far, interleaved as it came. */
  output(): string;
  /** Resolves with the output once `pattern` matches it; rejects on exit or after `timeoutMs`. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** Resolves with the exit code (or the signal's name) once the process has ended. */
  exited: Promise<number | string | null>;
  /** The BFF URL from the banner. */
  url(): Promise<string>;
  /** Whether `child` is a launcher (tsx) with the server in a process of its own. */
  spawnedServer: boolean;
};

/**
 * `npm start` as a real child process: node itself with tsx as its loader (nodeArgs), not the
 * tsx binary, which runs the server in a grandchild: a SIGKILL to it would leave the server
 * running. So the PID here is the server's own and a SIGKILL kills exactly it.
 * `npmStartCommand`: `npm start`'s own command line instead (the tsx binary, V8's every tier), for
 * the test of the two-commands promise itself; stop it with stopServer (below).
 */
export function spawnMain(
  env: Record<string, string>,
  { npmStartCommand = false }: { npmStartCommand?: boolean } = {},
): SpawnedMain {
  const [command, args] = npmStartCommand
    ? [join(ROOT, 'node_modules', '.bin', 'tsx'), [MAIN]]
    : [process.execPath, nodeArgs(MAIN)];
  // `npm start` builds the app when dist/ has none: never while the run's own build writes it.
  appBuildSettledSync();
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', RECORDS_PORT: '0', LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const listeners = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    out += chunk.toString('utf8');
    for (const l of listeners) l();
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  const exited = new Promise<number | string | null>((resolve) =>
    child.on('exit', (code, signal) => resolve(code ?? signal)),
  );
  // A hang guard, not a speed check: a first start creates two embedded databases, migrates and
  // seeds them (15 s on this machine when quiet, over a minute at load 8 on two cores).
  const waitFor = (pattern: RegExp, timeoutMs = 180_000) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        if (!pattern.test(out)) return;
        done();
        resolve(out);
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`timed out waiting for ${pattern}; output so far:\n${out}`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        listeners.delete(check);
      };
      listeners.add(check);
      void exited.then(() => {
        if (!listeners.has(check)) return;
        done();
        if (pattern.test(out)) resolve(out);
        else reject(new Error(`exited before ${pattern}:\n${out}`));
      });
      check();
    });
  return {
    child,
    spawnedServer: npmStartCommand,
    output: () => out,
    waitFor,
    exited,
    url: async () =>
      /Trapline is running at (https?:\/\/\S+)/.exec(
        await waitFor(/Trapline is running at https?:\/\/\S+\n/),
      )?.[1] ?? '',
  };
}

/** The PIDs `pid` started (from /proc: every thread's children). */
function childPids(pid: number): number[] {
  return readdirSync(`/proc/${pid}/task`).flatMap((task) =>
    readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number),
  );
}

/**
 * Sends `signal` to the server itself (SIGTERM as a service manager does, SIGINT as Ctrl-C does)
 * and resolves with how the spawned command ended. Under npmStartCommand the spawned process is
 * tsx, which runs the server in a child: tsx relays a signal sent to it only, but waits 30 ms for
 * its child to acknowledge it and otherwise SIGKILLs it and exits 128 + the signal, and on a
 * loaded machine 30 ms pass now and then (a restart test ended with 130 at load 18). The server's
 * own shutdown is what the tests ask about, so the signal goes to it; tsx exits with its code.
 */
export async function stopServer(
  p: SpawnedMain,
  signal: 'SIGTERM' | 'SIGINT',
): Promise<number | string | null> {
  const pid = p.child.pid;
  if (pid === undefined) return p.exited;
  const server = p.spawnedServer ? childPids(pid).find(isServer) : pid;
  if (server === undefined) throw new Error(`no server process under ${pid}:\n${p.output()}`);
  process.kill(server, signal);
  return p.exited;
}

/** Whether the process `pid` runs src/server/main.ts. */
function isServer(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(MAIN);
  } catch {
    return false;
  }
}

/** Ends a spawned process if it still runs (SIGKILL: tests clean up, they do not test shutdown). */
export async function killSpawned(p: SpawnedMain | undefined): Promise<void> {
  if (!p || p.child.exitCode !== null || p.child.signalCode !== null) return;
  p.child.kill('SIGKILL');
  await p.exited;
}

export type MainOnMigratedDir = {
  /** The BFF's URL from the banner, without a trailing slash. */
  url: string;
  /** Stops the server as a user does (SIGTERM), waits for it to end, and deletes its data. */
  stop(): Promise<void>;
};

/**
 * `npm start` on a fresh migrated data directory (migratedDataDir), its demo accounts signing in
 * with `password`, resolved once it serves. For tests that need the whole server beside them
 * (the jsdom files whose pages talk to a real BFF) rather than a test of starting itself.
 */
export async function startMainOnMigratedDir(
  prefix: string,
  password: string,
): Promise<MainOnMigratedDir> {
  const dataDir = migratedDataDir(prefix);
  const main = spawnMain({ TRAPLINE_DATA_DIR: dataDir, TRAPLINE_DEMO_PASSWORD: password });
  const stop = async () => {
    if (main.child.exitCode === null && main.child.signalCode === null) {
      main.child.kill('SIGTERM');
      await main.exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    return { url: (await main.url()).replace(/\/$/, ''), stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
