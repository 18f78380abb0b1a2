/**
 * `npm start -- --workers N`: a small process manager. It forks N copies of `npm start` (main.ts,
 * each a BFF plus its records service on one PostgreSQL, see worker-plan.ts), prints where each
 * listens once all are up, restarts a worker that dies after it started, and stops them all on
 * SIGTERM / SIGINT.
 *
 * What holds across workers lives in PostgreSQL, not in a process: numbering (an advisory lock
 * per agency-year series), idempotency claims and the BFF's journal leases (rows changed by one
 * atomic statement each), sessions, migrations and the first seeding (advisory locks). The BFF's
 * session cache is per process; sign-out reaches the others through LISTEN/NOTIFY
 * (session-store.ts).
 */
import { fork, type ChildProcess } from 'node:child_process';
import type { WorkerPlan } from './worker-plan';

/** What a worker tells the manager over the IPC channel once it listens. */
export type WorkerMessage = {
  type: 'listening';
  url: string;
  /** The worker's start-up lines after its URL: how to sign in. */
  signIn: string;
  /** This worker seeded the empty database: its sign-in lines hold the generated password. */
  seeded: boolean;
};

/** Env naming a worker's place; main.ts reads it to report to the manager instead of printing. */
export const WORKER_INDEX_ENV = 'TRAPLINE_WORKER_INDEX';

/** How long a restarted worker waits, so a crash loop does not spin a core. */
const RESTART_DELAY_MS = 1_000;

export type RunningWorkers = { urls: string[]; banner: string; close(): Promise<void> };

export async function startWorkers(
  entry: string,
  plans: WorkerPlan[],
  log: (line: string) => void = (line) => console.log(line),
): Promise<RunningWorkers> {
  let closing = false;
  const children = new Map<number, ChildProcess>();

  const launch = (plan: WorkerPlan): Promise<WorkerMessage> => {
    const child = fork(entry, [], {
      env: {
        ...process.env,
        PORT: String(plan.port),
        RECORDS_PORT: String(plan.recordsPort),
        [WORKER_INDEX_ENV]: String(plan.index),
      },
      // A group of its own: a terminal's Ctrl-C reaches the manager only, which stops each
      // worker once (a second signal would make a worker exit at once, see closeOnSignals).
      detached: true,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    children.set(plan.index, child);
    return new Promise((resolve, reject) => {
      let listening = false;
      child.on('message', (msg: WorkerMessage) => {
        if (msg?.type !== 'listening') return;
        listening = true;
        resolve(msg);
      });
      child.once('exit', (code, signal) => {
        if (!listening) {
          reject(new Error(`worker ${plan.index} exited (${signal ?? code}) before listening`));
          return;
        }
        if (closing) return;
        log(`Worker ${plan.index} exited (${signal ?? code}); restarting it`);
        setTimeout(() => {
          if (closing) return;
          launch(plan).then(
            (m) => log(`Worker ${plan.index} is back at ${m.url}`),
            (err: unknown) => log(`Worker ${plan.index} did not restart: ${String(err)}`),
          );
        }, RESTART_DELAY_MS);
      });
    });
  };

  const stopAll = async () => {
    closing = true;
    await Promise.all(
      [...children.values()].map(async (child) => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = new Promise<void>((done) => child.once('exit', () => done()));
        child.kill('SIGTERM');
        await exited;
      }),
    );
  };

  let started: WorkerMessage[];
  try {
    // All at once: migrations and the first seeding take advisory locks, so one worker does
    // them and the others find them done (only that one reports the demo sign-in).
    const launches = plans.map(launch);
    started = await Promise.all(launches);
  } catch (err) {
    await stopAll();
    throw err;
  }
  const urls = started.map((m) => m.url);
  const banner = [
    `Trapline is running on ${plans.length} workers sharing one PostgreSQL: ${urls.join(', ')}`,
    'Put a reverse proxy in front of them (docs/nginx-scale-out.conf).',
    (started.find((m) => m.seeded) ?? started[0]).signIn,
  ].join('\n');
  let closed: Promise<void> | null = null;
  return { urls, banner, close: () => (closed ??= stopAll()) };
}
