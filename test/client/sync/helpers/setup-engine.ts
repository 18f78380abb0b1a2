import { onTestFinished, vi } from 'vitest';
import type { TraplineDb } from '../../../../src/client/db/database';
import {
  createSyncEngine,
  type BackoffOptions,
  type SyncEngine,
  type SyncEngineOptions,
} from '../../../../src/client/sync';
import { FakeBff } from './fake-bff';
import { makeDb } from './outbox-factory';

/**
 * The engine imports its drain, pull, discard and conflict modules on first use (chunks of their
 * own in the app). Loaded here up front, so a test on fake timers never waits on module loading,
 * which takes real time (a loaded machine's time): the backoff test's first send came after its
 * settle rounds had run out while the suite ran e2e files beside it.
 */
await Promise.all([
  import('../../../../src/client/sync/drain-outbox'),
  import('../../../../src/client/sync/pull-records'),
  import('../../../../src/client/sync/discard-entry'),
  import('../../../../src/client/sync/resolve-conflict'),
]);

/** A real engine over a fresh Dexie database, its fetch answered by a FakeBff. Fast backoff. */
export function setupEngine(
  options: SyncEngineOptions = {},
  delayMs = 0,
): { db: TraplineDb; bff: FakeBff; engine: SyncEngine; dispose: () => Promise<void> } {
  const db = makeDb();
  const bff = new FakeBff(delayMs);
  vi.stubGlobal('fetch', bff.fetch);
  const engine = createSyncEngine(db, {
    autoPull: false,
    channelName: null,
    backoff: { baseMs: 2, capMs: 20 },
    ...options,
  });
  const cleanup = async () => {
    engine.stop();
    await Promise.race([
      engine.settled().catch(() => undefined),
      new Promise((r) => setTimeout(r, 2000)),
    ]);
    db.close();
    await db.delete();
  };
  let disposed = false;
  /** Stops the engine and deletes its database now (e.g. at the end of each property run). */
  const dispose = async () => {
    if (disposed) return;
    disposed = true;
    await cleanup();
  };
  // Registered by the test that made the engine, not once by this module: test files share
  // their worker's modules (isolate: false), so a module-level afterEach would belong to the
  // first file that imported this helper alone.
  onTestFinished(async () => {
    await dispose();
    vi.unstubAllGlobals();
  });
  return { db, bff, engine, dispose };
}

/**
 * An engine that pulls on its own, on Vitest's fake clock (timeouts, intervals such as the sync
 * bar's clock, and Date) until the test ends: a failed pull's retries wait 0.75 of
 * `pullRetry.baseMs`, then of twice that…
 */
export function retryingEngine(pullRetry: BackoffOptions) {
  vi.useFakeTimers({
    toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
  });
  const made = setupEngine({ autoPull: true, pullRetry, random: () => 0.75 });
  // Registered after setupEngine's cleanup, so it runs before it (onTestFinished hooks run last
  // first): that cleanup waits on real timers.
  onTestFinished(() => {
    vi.useRealTimers();
  });
  return made;
}

/** Drains until nothing more can be sent without the user. */
export async function drain(engine: SyncEngine): Promise<void> {
  engine.requestSync('test');
  await engine.settled();
}
