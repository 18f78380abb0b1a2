import { onTestFinished, vi } from 'vitest';
import type { TraplineDb } from '../../../../src/client/db/database';
import { DEFAULT_BACKOFF } from '../../../../src/client/sync/backoff';
import type { DrainHooks } from '../../../../src/client/sync/drain-outbox';
import type { SyncContext } from '../../../../src/client/sync/sync-context';
import { FakeBff } from './fake-bff';
import { makeDb } from './outbox-factory';

/**
 * For tests of drainOutbox itself, without the engine around it: a fresh database (not yet
 * opened, so a test can install counting middleware first), its fetch answered by a FakeBff, a
 * context on the real clock and the default backoff, and hooks that send three at a time and
 * keep the last in-flight set. The database is deleted when the test ends.
 */
export function setupDrain(): {
  db: TraplineDb;
  bff: FakeBff;
  ctx: SyncContext;
  hooks: DrainHooks;
  inFlight: () => ReadonlySet<string>;
} {
  const db = makeDb();
  const bff = new FakeBff();
  vi.stubGlobal('fetch', bff.fetch);
  onTestFinished(async () => {
    db.close();
    await db.delete();
    vi.unstubAllGlobals();
  });
  const ctx: SyncContext = {
    db,
    baseUrl: '',
    headers: {},
    now: Date.now,
    random: Math.random,
    backoff: DEFAULT_BACKOFF,
    timeoutMs: 30_000,
    stopped: () => false,
  };
  let inFlight: ReadonlySet<string> = new Set();
  const hooks: DrainHooks = {
    concurrency: 3,
    shouldStop: () => false,
    onPause: () => undefined,
    onAcknowledged: () => undefined,
    onProgress: () => undefined,
    onInFlight: (ids) => {
      inFlight = ids;
    },
  };
  return { db, bff, ctx, hooks, inFlight: () => inFlight };
}
