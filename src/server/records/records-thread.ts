/**
 * The records service on a thread of its own, for `npm start` on the embedded database.
 *
 * Why: PGlite runs one statement at a time on the thread that owns it, and with the BFF on the
 * same thread every millisecond of BFF work (cookies, sessions, JSON, proxying) came out of the
 * records service's capacity: the BFF reached 0.72–0.82 of the records service's own throughput
 * while nginx, on the other core, reached 1.0 (issue 13). On a worker thread the records service
 * and its database get a core of their own, as they do behind nginx, and the BFF talks to it over
 * loopback HTTP exactly as it talks to a hosted service.
 *
 * The thread owns its PGlite; nothing else may open that data directory (PGlite is single-process).
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { RecordsEnv } from './env';
import type { DemoCredentials } from './server';

export type ThreadedRecords = {
  url: string;
  demoCredentials: DemoCredentials | null;
  /** Closes the server (in-flight requests finish) and the database, then ends the thread. */
  close(): Promise<void>;
};

/** What the thread says: listening, failed to start, or closed. */
export type RecordsThreadMessage =
  | { type: 'listening'; url: string; demoCredentials: DemoCredentials | null }
  | { type: 'failed'; message: string; stack?: string }
  | { type: 'closed' };

export type RecordsThreadData = { env: Partial<RecordsEnv>; logLevel: string; demoData: boolean };

// The thread runs TypeScript like the process that starts it: it registers tsx's loader, then
// imports the entry. (Node 20 does not apply an `--import` loader to a worker's own entry.)
// Both are resolved from here, so the working directory does not matter.
const TSX_API = pathToFileURL(
  join(
    dirname(createRequire(import.meta.url).resolve('tsx/package.json')),
    'dist/esm/api/index.mjs',
  ),
).href;
const ENTRY = new URL('./records-thread-main.ts', import.meta.url).href;
const BOOT = `(async () => {
  const { register } = await import(${JSON.stringify(TSX_API)});
  register();
  await import(${JSON.stringify(ENTRY)});
})().catch((err) => { console.error(err); process.exit(1); });`;

export async function startRecordsThread(
  env: Partial<RecordsEnv>,
  options: { logLevel?: string; demoData?: boolean } = {},
): Promise<ThreadedRecords> {
  const workerData: RecordsThreadData = {
    env,
    logLevel: options.logLevel ?? 'info',
    demoData: options.demoData ?? true,
  };
  const worker = new Worker(BOOT, { eval: true, workerData });
  const exited = new Promise<number>((done) => worker.once('exit', done));
  const started = await new Promise<RecordsThreadMessage>((done, fail) => {
    worker.once('message', done);
    worker.once('error', fail);
    void exited.then((code) => fail(new Error(`records thread exited (${code}) before listening`)));
  });
  if (started.type !== 'listening') {
    await exited;
    const err = new Error(started.type === 'failed' ? started.message : 'records thread closed');
    if (started.type === 'failed' && started.stack) err.stack = started.stack;
    throw err;
  }
  let closing: Promise<void> | null = null;
  return {
    url: started.url,
    demoCredentials: started.demoCredentials,
    close() {
      closing ??= (async () => {
        worker.postMessage('close');
        await exited;
      })();
      return closing;
    },
  };
}
