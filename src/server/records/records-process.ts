/**
 * The records service in a process of its own, for `npm start` on the embedded database.
 *
 * Why a process and not the thread it ran on before (records-thread.ts): a worker thread has a
 * heap of its own, but when the process's main thread (the BFF) runs out of heap, V8 ends the
 * whole process, and the records service on its thread went down mid-request with it (issue 36
 * N1: one report request exhausted the BFF's heap and the stack was gone). `resourceLimits`
 * bound only the worker's heap, not the BFF's. In a process of its own the records service
 * shares nothing with the BFF but loopback HTTP: a BFF that dies leaves it to finish its
 * in-flight requests and close its database in order (it then stops: it exists for the BFF, and
 * its data directory must be free for the next start), and a records service that dies is
 * reported and started again on the same port while the BFF keeps serving (502 meanwhile, which
 * the app retries). It keeps a core of its own as on the thread (issue 13).
 *
 * The process owns its PGlite; nothing else may open that data directory (PGlite is
 * single-process).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { RecordsEnv } from './env';
import type { DemoCredentials } from './server';

export type RecordsProcess = {
  url: string;
  demoCredentials: DemoCredentials | null;
  /** The process's id now (a restart changes it). */
  pid(): number | undefined;
  /** Closes the server (in-flight requests finish) and the database, then ends the process. */
  close(): Promise<void>;
};

/** What the process says over IPC: listening, failed to start, or closed. */
export type RecordsProcessMessage =
  | { type: 'listening'; url: string; demoCredentials: DemoCredentials | null }
  | { type: 'failed'; message: string; stack?: string }
  | { type: 'closed' };

/** What the parent sends: the configuration once, then 'close'. */
export type RecordsProcessCommand =
  | { type: 'start'; env: Partial<RecordsEnv>; logLevel: string; demoData: boolean }
  | { type: 'close' };

export type RecordsProcessOptions = {
  logLevel?: string;
  demoData?: boolean;
  /** Told of every unexpected end of the process (a line to print) and of its restart. */
  report?: (line: string) => void;
};

/** How long a restart waits, so a crash loop does not spin a core. */
const RESTART_DELAY_MS = 1_000;

const ENTRY = fileURLToPath(new URL('./records-process-main.ts', import.meta.url));
// The child runs TypeScript as the parent does: with tsx's loader, resolved from here so the
// working directory does not matter (the parent may have it already: `tsx main.ts`).
const TSX_LOADER = pathToFileURL(
  join(dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist/loader.mjs'),
).href;
const execArgv = () =>
  process.execArgv.some((a) => a.includes('tsx'))
    ? process.execArgv
    : [...process.execArgv, '--import', TSX_LOADER];

/** Forks the records service and resolves once it listens (rejects if it could not start). */
export async function startRecordsProcess(
  env: Partial<RecordsEnv>,
  options: RecordsProcessOptions = {},
): Promise<RecordsProcess> {
  const report = options.report ?? ((line: string) => console.error(line));
  let closing = false;
  let child: ChildProcess;

  const launch = async (launchEnv: Partial<RecordsEnv>, demoData: boolean) => {
    child = fork(ENTRY, [], {
      execArgv: execArgv(),
      // A group of its own: a terminal's Ctrl-C reaches the BFF's process only, which stops
      // this one after the BFF (requests in flight through the BFF finish first).
      detached: true,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const exited = new Promise<string>((done) =>
      child.once('exit', (code, signal) => done(signal ?? `exit code ${code}`)),
    );
    const command: RecordsProcessCommand = {
      type: 'start',
      env: launchEnv,
      logLevel: options.logLevel ?? 'info',
      demoData,
    };
    child.send(command);
    const started = await new Promise<RecordsProcessMessage>((done, fail) => {
      child.once('message', (m: RecordsProcessMessage) => done(m));
      child.once('error', fail);
      void exited.then((how) =>
        fail(new Error(`records service exited (${how}) before listening`)),
      );
    });
    if (started.type !== 'listening') {
      await exited;
      const err = new Error(started.type === 'failed' ? started.message : 'records service closed');
      if (started.type === 'failed' && started.stack) err.stack = started.stack;
      throw err;
    }
    return { started, exited };
  };

  const first = await launch(env, options.demoData ?? true);
  const url = first.started.url;
  // A restart listens where the BFF already sends its requests.
  const again = { ...env, RECORDS_PORT: Number(new URL(url).port) };
  const watch = (exited: Promise<string>) => {
    void exited.then((how) => {
      if (closing) return;
      report(`The records service stopped unexpectedly (${how}); starting it again`);
      setTimeout(() => {
        if (closing) return;
        launch(again, false).then(
          (next) => {
            if (!closing) report(`The records service is back at ${next.started.url}`);
            watch(next.exited);
          },
          (err: unknown) => report(`The records service did not start again: ${String(err)}`),
        );
      }, RESTART_DELAY_MS);
    });
  };
  watch(first.exited);

  let closed: Promise<void> | null = null;
  return {
    url,
    demoCredentials: first.started.demoCredentials,
    pid: () => child.pid,
    close() {
      closed ??= (async () => {
        closing = true;
        const current = child;
        if (current.exitCode !== null || current.signalCode !== null) return;
        const exited = new Promise<void>((done) => current.once('exit', () => done()));
        const close: RecordsProcessCommand = { type: 'close' };
        if (current.connected) current.send(close);
        else current.kill('SIGTERM');
        await exited;
      })();
      return closed;
    },
  };
}
