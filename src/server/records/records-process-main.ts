/**
 * Entry of the records service's process (records-process.ts): takes its configuration over IPC,
 * starts the server, says where it listens, and closes the server and its database, then exits,
 * on 'close', on SIGTERM / SIGINT, or when the parent process has gone (the IPC channel closed):
 * in-flight requests finish and nothing is left half-written.
 */
import { inspect } from 'node:util';
import type { RecordsProcessCommand, RecordsProcessMessage } from './records-process';
import { startRecordsServer, type RunningRecords } from './server';

if (!process.send) throw new Error('records-process-main.ts runs only as a forked process');

/** Says `m` to the parent when it still listens, then runs `then`. */
function say(m: RecordsProcessMessage, then: () => void = () => undefined): void {
  if (process.connected) process.send?.(m, () => then());
  else then();
}

/** The start under way or done (null before the parent's 'start'). */
let starting: Promise<RunningRecords | null> | null = null;
let stopping = false;

/** Closes what runs, once, after a start under way has ended, then exits. */
function stop(why: string): void {
  if (stopping) return;
  stopping = true;
  if (why !== 'close') console.error(`Records service: ${why}; closing`);
  void (starting ?? Promise.resolve(null))
    .then((running) => running?.close())
    .catch((err: unknown) => console.error(err))
    .finally(() => say({ type: 'closed' }, () => process.exit(0)));
}

process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGINT', () => stop('SIGINT'));
process.on('disconnect', () => stop('the BFF process has gone'));
process.on('message', (m: RecordsProcessCommand) => {
  if (m?.type === 'close') return stop('close');
  if (m?.type !== 'start' || starting) return;
  starting = startRecordsServer(m.env, {
    logger: { level: m.logLevel },
    demoData: m.demoData,
  }).then(
    (running) => {
      if (!stopping) {
        say({ type: 'listening', url: running.url, demoCredentials: running.demoCredentials });
      }
      return running;
    },
    (err: unknown) => {
      say(
        {
          type: 'failed',
          // Not every throw is an Error (PGlite's file system throws bare objects).
          message: err instanceof Error ? err.message : inspect(err),
          ...(err instanceof Error && err.stack ? { stack: err.stack } : {}),
        },
        () => process.exit(1),
      );
      return null;
    },
  );
});
