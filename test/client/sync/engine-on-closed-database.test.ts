import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TraplineDb } from '../../../src/client/db/database';
import { createSyncEngine, type SyncEngine } from '../../../src/client/sync';
import { makeDb } from './helpers/outbox-factory';

/**
 * The engine starts as the signed-in app mounts, and the user's database can close at any moment
 * after (a sign-out, another tab's upgrade, the tablet's storage cleared). What the start reads
 * without awaiting (the outbox's counts, the last sync's time kept from an earlier session) must
 * not become an unhandled rejection: in the browser that is an error in the console at best, and
 * in a Vitest run it fails the whole run.
 */
describe('a sync engine whose database closed as it started', () => {
  let engine: SyncEngine | undefined;
  let db: TraplineDb | undefined;
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);

  afterEach(async () => {
    process.off('unhandledRejection', onUnhandled);
    engine?.stop();
    vi.unstubAllGlobals();
    await db?.delete();
  });

  it('raises no unhandled rejection', async () => {
    process.on('unhandledRejection', onUnhandled);
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    db = makeDb();
    await db.open();
    db.close({ disableAutoOpen: true });
    engine = createSyncEngine(db, { autoPull: false, channelName: null });
    engine.start();
    // The start's reads and its first cycle run unawaited: given time to fail.
    await vi.waitFor(() => expect(engine!.getStatus().draining).toBe(false));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(unhandled.map(String)).toEqual([]);
  });
});
