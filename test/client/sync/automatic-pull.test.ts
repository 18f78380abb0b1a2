import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FakeRequest } from './helpers/fake-bff';
import { queueCreate, site } from './helpers/outbox-factory';
import { setupEngine } from './helpers/setup-engine';
import { PULL_WHEN_SHOWN_AFTER_MS } from '../../../src/client/sync/sync-engine';

/** Lets IndexedDB (fake-indexeddb runs on real setImmediate) and promises settle. */
async function settleIo(rounds = 30) {
  for (let i = 0; i < rounds; i += 1) await new Promise((resolve) => setImmediate(resolve));
}

/** Runs fake time forward by `ms`, letting the engine's IndexedDB work finish after it. */
async function pass(ms: number) {
  await vi.advanceTimersByTimeAsync(ms);
  await settleIo();
}

/** Lets the engine's work at this fake time finish until `done` holds (a hang guard, no timing). */
async function until(done: () => boolean | Promise<boolean>, rounds = 50) {
  for (let i = 0; i < rounds && !(await done()); i += 1) await pass(0);
}

/**
 * An engine on fake time that pulls on its own, a failed pull's retries waiting 0.75 of 1 s, 2 s,
 * 4 s…: no Sync now is ever tapped.
 */
function retryingEngine() {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  return setupEngine({
    autoPull: true,
    pullRetry: { baseMs: 1_000, capMs: 8_000 },
    random: () => 0.75,
  });
}

/** The site list requests of the pull proper (not its check of which sites are still active). */
const siteListings = (requests: FakeRequest[]) =>
  requests.filter((r) => r.method === 'GET' && r.entity === 'site' && !r.path.includes('fields'));

/**
 * A tablet left on the seat with one bar of signal: the pull at app start fails (the answer is a
 * 503 or never comes). Nobody taps Sync now; the office's sites must still arrive once a try gets
 * through. Two sites that look alike (one name, one place) so that storing one twice, or one for
 * the other, shows.
 */
describe('a failed automatic pull', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is tried again on its own after its backoff, and then stores every site once', async () => {
    const { db, bff, engine } = retryingEngine();
    const twins = [
      bff.seed('site', { ...site(1), name: 'Twin Slough' }),
      bff.seed('site', { ...site(2), name: 'Twin Slough' }),
    ];
    let failures = 2;
    bff.fault = (req) =>
      siteListings([req]).length === 1 && failures-- > 0 ? { status: 503 } : null;

    engine.start();
    await until(() => engine.getStatus().pulling === null && siteListings(bff.requests).length > 0);
    expect(siteListings(bff.requests)).toHaveLength(1);
    expect(await db.sites.count()).toBe(0);

    // First retry after 0.75 × 1 s, not before; it fails too.
    await pass(749);
    expect(siteListings(bff.requests)).toHaveLength(1);
    await pass(1);
    expect(siteListings(bff.requests)).toHaveLength(2);
    expect(await db.sites.count()).toBe(0);

    // The second waits twice as long (0.75 × 2 s), then gets through.
    await pass(1_499);
    expect(siteListings(bff.requests)).toHaveLength(2);
    await pass(1);
    expect(siteListings(bff.requests)).toHaveLength(3);
    await until(() => engine.getStatus().lastPullAt !== null);
    const stored = await db.sites.toArray();
    expect(stored.map((s) => s.serverId).sort()).toEqual(twins.map((t) => t.id).sort());
    expect(stored.map((s) => s.code).sort()).toEqual(['100001', '100002']);
    expect(engine.getStatus().lastPullAt).not.toBeNull();

    // Nothing more is tried once a pull got through.
    await pass(60_000);
    expect(siteListings(bff.requests)).toHaveLength(3);
  });

  it('is not tried early by the drain of a save made while it waits', async () => {
    const { db, bff, engine } = retryingEngine();
    bff.seed('site', { ...site(1), name: 'Twin Slough' });
    let failures = 1;
    bff.fault = (req) =>
      siteListings([req]).length === 1 && failures-- > 0 ? { status: 503 } : null;
    engine.start();
    await until(() => engine.getStatus().pulling === null && siteListings(bff.requests).length > 0);

    // A site saved on the tablet (same name, its own code) is sent at once; the pull still waits.
    await queueCreate(db, 'site', { ...site(2), name: 'Twin Slough' });
    engine.requestSync('save');
    await until(async () => (await db.outbox.count()) === 0);
    expect(siteListings(bff.requests)).toHaveLength(1);

    await pass(750);
    await until(() => engine.getStatus().lastPullAt !== null);
    expect(siteListings(bff.requests)).toHaveLength(2);
    const codes = (await db.sites.toArray()).map((s) => s.code).sort();
    expect(codes).toEqual(['100001', '100002']);
  });

  it('waits for sign-in, not a timer, when the pull found the session expired', async () => {
    const { db, bff, engine } = retryingEngine();
    bff.seed('site', site(1));
    let expired = true;
    bff.fault = (req) =>
      expired && siteListings([req]).length === 1
        ? { status: 401, code: 'reauth_required', message: 'Sign in again' }
        : null;

    engine.start();
    await until(() => engine.getStatus().paused);
    expect(engine.getStatus().paused).toBe(true);
    await pass(60_000);
    expect(siteListings(bff.requests)).toHaveLength(1);

    expired = false;
    engine.resume();
    await until(() => engine.getStatus().lastPullAt !== null);
    expect(siteListings(bff.requests)).toHaveLength(2);
    expect(await db.sites.count()).toBe(1);
  });
});

/**
 * The tablet woken in the morning, or the technician back from the camera: the app is shown
 * again. The office added a site overnight that looks like one already on the tablet (same name,
 * same place, its own code). A glance back within minutes of the last pull costs no pull; a look
 * after longer pulls, and the new site arrives once, beside the old one.
 */
describe('the app shown again', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  const showApp = () => document.dispatchEvent(new Event('visibilitychange'));

  it('pulls when its last pull is older than PULL_WHEN_SHOWN_AFTER_MS, not on a glance', async () => {
    const { db, bff, engine } = retryingEngine();
    expect(document.visibilityState).toBe('visible');
    const first = bff.seed('site', { ...site(1), name: 'Twin Slough' });
    engine.start();
    await until(() => engine.getStatus().lastPullAt !== null);
    const pulledAt = engine.getStatus().lastPullAt!;
    expect(siteListings(bff.requests)).toHaveLength(1);
    const overnight = bff.seed('site', { ...site(2), name: 'Twin Slough' });

    await pass(PULL_WHEN_SHOWN_AFTER_MS - 1_000);
    showApp();
    await until(() => engine.getStatus().pulling === null);
    await pass(0);
    expect(siteListings(bff.requests)).toHaveLength(1);
    expect(await db.sites.count()).toBe(1);

    await pass(1_001);
    showApp();
    await until(() => engine.getStatus().lastPullAt !== pulledAt);
    expect(siteListings(bff.requests)).toHaveLength(2);
    const stored = await db.sites.toArray();
    expect(stored.map((s) => [s.serverId, s.code]).sort()).toEqual(
      [
        [first.id, '100001'],
        [overnight.id, '100002'],
      ].sort(),
    );
  });
});
