import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../../src/server/main';
import { nodeArgs } from '../helpers/node-process';

export type ServerProcess = {
  readonly name: string;
  /** The URL it listens on now, or null while it is down. */
  url(): string | null;
  /** Resolves with the URL once it serves (at once when it already does). */
  ready(): Promise<string>;
  /** SIGKILL now, then start it again on the same data directory. False when it was down. */
  killAndRestart(): boolean;
  /** Exits nobody asked for (crashes), each with the output that came before it. */
  readonly crashes: string[];
  /** Seconds each start since the last call took from spawn to serving (then forgets them). */
  takeStartSeconds(): number[];
  stop(): Promise<void>;
};

const LISTENING = /listening at (http:\/\/\S+)/;

/**
 * One server of the chaos stack as a real child process: `node --import tsx <script>` (nodeArgs:
 * Liftoff only; the suite's three seeds took 10.3 CPU-s of server instead of 15.6, in the same
 * time, as the servers wait on the fault schedule far more than they compute), not the
 * tsx binary (that runs the server in a grandchild, which a SIGKILL would leave running), so the
 * PID is the server's own and SIGKILL kills exactly it. The script prints `listening at <url>`;
 * `onUrl` hears every new URL (a restarted server listens on a new port). A crash is recorded
 * and the server started again, so one run can show several.
 */
export function startServerProcess(
  name: string,
  script: string,
  env: Record<string, string>,
  onUrl: (url: string) => void,
): ServerProcess {
  let child: ChildProcess | null = null;
  let current: string | null = null;
  let starting: Promise<string>;
  let stopping = false;
  const killed = new WeakSet<ChildProcess>();
  const crashes: string[] = [];
  let startSeconds: number[] = [];

  const launch = (): Promise<string> => {
    const spawnedAt = Date.now();
    const proc = spawn(process.execPath, nodeArgs(join(ROOT, script)), {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: 'silent', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = proc;
    let out = '';
    return new Promise<string>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        out += chunk.toString('utf8');
        const m = LISTENING.exec(out);
        if (m && current === null && child === proc) {
          current = m[1];
          startSeconds.push((Date.now() - spawnedAt) / 1000);
          onUrl(m[1]);
          resolve(m[1]);
        }
      };
      proc.stdout?.on('data', onData);
      proc.stderr?.on('data', onData);
      proc.on('exit', (code, signal) => {
        const served = child !== proc || current !== null;
        if (child === proc) {
          child = null;
          current = null;
        }
        if (killed.has(proc) || stopping) return;
        crashes.push(`${name} exited (${code ?? signal}) on its own:\n${out.slice(-2000)}`);
        if (!served) reject(new Error(crashes[crashes.length - 1]));
        else starting = launch();
      });
    });
  };

  starting = launch();
  return {
    name,
    url: () => current,
    ready: () => (current ? Promise.resolve(current) : starting),
    killAndRestart() {
      const proc = child;
      if (!proc || current === null) return false;
      killed.add(proc);
      current = null;
      const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
      proc.kill('SIGKILL');
      starting = exited.then(launch);
      // A failed restart is reported by whoever awaits ready().
      starting.catch(() => undefined);
      return true;
    },
    crashes,
    takeStartSeconds() {
      const taken = startSeconds;
      startSeconds = [];
      return taken;
    },
    async stop() {
      stopping = true;
      await starting.catch(() => undefined);
      const proc = child;
      if (!proc) return;
      const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
      proc.kill('SIGKILL');
      await exited;
    },
  };
}
