/**
 * Entry of the records service's thread (records-thread.ts): starts the server, says where it
 * listens, and on 'close' closes it and its database, then lets the thread end.
 */
import { inspect } from 'node:util';
import { parentPort, workerData } from 'node:worker_threads';
import type { RecordsThreadData, RecordsThreadMessage } from './records-thread';
import { startRecordsServer } from './server';

const port = parentPort;
if (!port) throw new Error('records-thread-main.ts runs only as a worker thread');
const data = workerData as RecordsThreadData;
const say = (m: RecordsThreadMessage) => port.postMessage(m);

try {
  const running = await startRecordsServer(data.env, {
    logger: { level: data.logLevel },
    demoData: data.demoData,
  });
  port.on('message', (m: unknown) => {
    if (m !== 'close') return;
    void running.close().finally(() => {
      say({ type: 'closed' });
      port.close();
    });
  });
  say({ type: 'listening', url: running.url, demoCredentials: running.demoCredentials });
} catch (err) {
  say({
    type: 'failed',
    // Not every throw is an Error (PGlite's file system throws bare objects): never "[object Object]".
    message: err instanceof Error ? err.message : inspect(err),
    ...(err instanceof Error && err.stack ? { stack: err.stack } : {}),
  });
  port.close();
}
