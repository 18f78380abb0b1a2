import { afterEach, describe, expect, it, vi } from 'vitest';
import { TraplineDb } from '../../../src/client/db/database';
import { createSyncEngine, type SyncEngine } from '../../../src/client/sync';
import { FakeBff } from './helpers/fake-bff';
import { makeDb, queueCreate, site } from './helpers/outbox-factory';

const open: Array<{ engine: SyncEngine; db: TraplineDb }> = [];

afterEach(async () => {
  for (const { engine, db } of open.splice(0)) {
    engine.stop();
    await engine.settled();
    db.close();
  }
  vi.unstubAllGlobals();
});

/** A tab: an engine over its own connection to the user's database, on a shared channel. */
function tab(name: string, channelName: string) {
  const db = new TraplineDb(name);
  const engine = createSyncEngine(db, { autoPull: false, channelName });
  open.push({ engine, db });
  return { db, engine };
}

describe('sync status between tabs', () => {
  it('keeps "last synced" in a tab when another tab opens that has not read it yet', async () => {
    const first = makeDb();
    vi.stubGlobal('fetch', new FakeBff().fetch);
    await queueCreate(first, 'site', site(1));
    first.close();
    const channel = `trapline-sync-test-${first.name}`;
    const a = tab(first.name, channel);
    a.engine.start();
    await a.engine.settled();
    const syncedAt = a.engine.getStatus().lastSuccessAt;
    expect(syncedAt).not.toBeNull();
    const shown: Array<number | null> = [];
    a.engine.subscribe((s) => shown.push(s.lastSuccessAt));

    // A second tab opens: it broadcasts that it is draining before it has read the last sync
    // time from the database.
    const b = tab(first.name, channel);
    b.engine.start();
    await b.engine.settled();
    await vi.waitFor(() => expect(shown.length).toBeGreaterThan(0));
    await vi.waitFor(() => expect(b.engine.getStatus().lastSuccessAt).toBe(syncedAt));

    // The first tab never went back to "never synced" (nor to an older time).
    expect(shown.every((at) => at === syncedAt)).toBe(true);
    expect(a.engine.getStatus().lastSuccessAt).toBe(syncedAt);
  });
});
