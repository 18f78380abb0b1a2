import { afterEach, describe, expect, it, vi } from 'vitest';
import { TraplineDb } from '../../../src/client/db/database';
import {
  createSyncEngine,
  type SyncEngine,
  type SyncEngineOptions,
} from '../../../src/client/sync';
import { FakeBff, isSitePull, seedTwinSites } from './helpers/fake-bff';
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

/** A second "tab": another engine over another connection to the same user database. */
function tab(
  name: string,
  channelName: string | null = null,
  options: Partial<SyncEngineOptions> = {},
) {
  const db = new TraplineDb(name);
  const engine = createSyncEngine(db, {
    autoPull: false,
    channelName,
    backoff: { baseMs: 2, capMs: 20 },
    ...options,
  });
  open.push({ engine, db });
  return { db, engine };
}

describe('several tabs', () => {
  it('runs one drain at a time: two tabs asking together send each entry once', async () => {
    const first = makeDb();
    const bff = new FakeBff(10);
    vi.stubGlobal('fetch', bff.fetch);
    const keys: string[] = [];
    for (let i = 0; i < 12; i += 1) keys.push((await queueCreate(first, 'site', site(i))).entryId);
    first.close();
    const a = tab(first.name);
    const b = tab(first.name);

    a.engine.requestSync('manual');
    b.engine.requestSync('manual');
    await Promise.all([a.engine.settled(), b.engine.settled()]);

    expect(bff.requests).toHaveLength(12);
    for (const key of keys) expect(bff.postsFor(key)).toBe(1);
    expect(bff.maxInFlight).toBeLessThanOrEqual(3);
    expect(await a.db.outbox.count()).toBe(0);
  });

  it('shows the draining tab’s progress and last sync time in the other tabs', async () => {
    const first = makeDb();
    const bff = new FakeBff(5);
    vi.stubGlobal('fetch', bff.fetch);
    for (let i = 0; i < 4; i += 1) await queueCreate(first, 'site', site(i));
    first.close();
    const channel = `trapline-sync-test-${first.name}`;
    const a = tab(first.name, channel);
    const b = tab(first.name, channel);
    const seen: boolean[] = [];
    b.engine.subscribe((s) => seen.push(s.draining));
    // a takes the outbox lock first; b waits for it, and by then a has sent everything.
    a.engine.start();
    b.engine.start();
    await a.engine.settled();
    await b.engine.settled();
    await vi.waitFor(() =>
      expect(b.engine.getStatus().lastSuccessAt).toBe(a.engine.getStatus().lastSuccessAt),
    );
    expect(a.engine.getStatus().lastSuccessAt).not.toBeNull();
    expect(seen).toContain(true);
    expect(bff.requests).toHaveLength(4);
  });

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

  it('stops saying the office’s changes were not received once another tab’s pull got them', async () => {
    const first = makeDb();
    first.close();
    const bff = new FakeBff(5);
    vi.stubGlobal('fetch', bff.fetch);
    seedTwinSites(bff);
    let down = true;
    bff.fault = (req) => (down && isSitePull(req) ? { status: 503 } : null);
    const channel = `trapline-sync-test-${first.name}`;
    const a = tab(first.name, channel);
    const b = tab(first.name, channel, { autoPull: true });
    a.engine.start();
    b.engine.start();
    await vi.waitFor(() => expect(b.engine.getStatus().pullFailure).not.toBeNull());
    expect(b.engine.getStatus().pullFailure).toMatchObject({ reason: 'server' });

    down = false;
    await a.engine.pull();
    await vi.waitFor(() => expect(b.engine.getStatus().pullFailure).toBeNull());
    expect((await b.db.sites.toArray()).map((s) => s.code).sort()).toEqual(['100001', '100002']);
  });

  it('keeps saying so when another tab only drains, though its own last pull is stamped ahead', async () => {
    const first = makeDb();
    first.close();
    const bff = new FakeBff(5);
    vi.stubGlobal('fetch', bff.fetch);
    bff.seed('site', { ...site(1), name: 'Twin Slough' });
    let down = false;
    bff.fault = (req) => (down && isSitePull(req) ? { status: 503 } : null);
    const channel = `trapline-sync-test-${first.name}`;
    // Tab b pulls while the tablet's clock runs two days ahead: its last pull is stamped then.
    const clock = { offset: 2 * 86_400_000 };
    const b = tab(first.name, channel, { autoPull: true, now: () => Date.now() + clock.offset });
    b.engine.start();
    await vi.waitFor(() => expect(b.engine.getStatus().lastPullAt).not.toBeNull());

    // The clock is put right; the next pull fails, earlier by the clock than the last one.
    clock.offset = 0;
    down = true;
    b.engine.requestSync('manual');
    await vi.waitFor(() => expect(b.engine.getStatus().pullFailure).not.toBeNull());

    // Tab a sends a look-alike site saved there (it pulls nothing): no pull got through.
    const heard: boolean[] = [];
    b.engine.subscribe((s) => heard.push(s.draining));
    const a = tab(first.name, channel);
    await queueCreate(a.db, 'site', { ...site(2), name: 'Twin Slough' });
    a.engine.start();
    await a.engine.settled();
    await vi.waitFor(() => expect(heard).toContain(true));
    await vi.waitFor(() => expect(heard.at(-1)).toBe(false));
    expect(bff.all('site')).toHaveLength(2);
    expect(b.engine.getStatus().pullFailure).toMatchObject({ reason: 'server' });
  });
});
