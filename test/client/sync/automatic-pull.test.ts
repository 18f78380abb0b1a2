import { describe, expect, it, vi } from 'vitest';
import { failSitePulls, isSitePull, seedTwinSites, sitePulls } from './helpers/fake-bff';
import { pass, until } from './helpers/fake-time';
import { queueCreate, site } from './helpers/outbox-factory';
import { retryingEngine } from './helpers/setup-engine';
import { PULL_WHEN_SHOWN_AFTER_MS } from '../../../src/client/sync/pull-schedule';

/** A failed pull's retries wait 0.75 of 1 s, 2 s, 4 s…: no Sync now is ever tapped. */
const retrying = () => retryingEngine({ baseMs: 1_000, capMs: 8_000 });

/**
 * A tablet left on the seat with one bar of signal: the pull at app start fails (the answer is a
 * 503 or never comes). Nobody taps Sync now; the office's sites must still arrive once a try gets
 * through. Two sites that look alike (one name, one place) so that storing one twice, or one for
 * the other, shows.
 */
describe('a failed automatic pull', () => {
  it('is tried again on its own after its backoff, and then stores every site once', async () => {
    const { db, bff, engine } = retrying();
    const twins = seedTwinSites(bff);
    failSitePulls(bff, 2);

    engine.start();
    await until(() => engine.getStatus().pulling === null && sitePulls(bff).length > 0);
    expect(sitePulls(bff)).toHaveLength(1);
    expect(await db.sites.count()).toBe(0);

    // First retry after 0.75 × 1 s, not before; it fails too.
    await pass(749);
    expect(sitePulls(bff)).toHaveLength(1);
    await pass(1);
    expect(sitePulls(bff)).toHaveLength(2);
    expect(await db.sites.count()).toBe(0);

    // The second waits twice as long (0.75 × 2 s), then gets through.
    await pass(1_499);
    expect(sitePulls(bff)).toHaveLength(2);
    await pass(1);
    expect(sitePulls(bff)).toHaveLength(3);
    await until(() => engine.getStatus().lastPullAt !== null);
    const stored = await db.sites.toArray();
    expect(stored.map((s) => s.serverId).sort()).toEqual(twins.map((t) => t.id).sort());
    expect(stored.map((s) => s.code).sort()).toEqual(['100001', '100002']);
    expect(engine.getStatus().lastPullAt).not.toBeNull();

    // Nothing more is tried once a pull got through.
    await pass(60_000);
    expect(sitePulls(bff)).toHaveLength(3);
  });

  it('is not tried early by the drain of a save made while it waits', async () => {
    const { db, bff, engine } = retrying();
    bff.seed('site', { ...site(1), name: 'Twin Slough' });
    failSitePulls(bff, 1);
    engine.start();
    await until(() => engine.getStatus().pulling === null && sitePulls(bff).length > 0);

    // A site saved on the tablet (same name, its own code) is sent at once; the pull still waits.
    await queueCreate(db, 'site', { ...site(2), name: 'Twin Slough' });
    engine.requestSync('save');
    await until(async () => (await db.outbox.count()) === 0);
    expect(sitePulls(bff)).toHaveLength(1);

    await pass(750);
    await until(() => engine.getStatus().lastPullAt !== null);
    expect(sitePulls(bff)).toHaveLength(2);
    const codes = (await db.sites.toArray()).map((s) => s.code).sort();
    expect(codes).toEqual(['100001', '100002']);
  });

  it('is tried after its wait even if the tablet’s clock was set back meanwhile', async () => {
    const { db, bff, engine } = retrying();
    const twins = seedTwinSites(bff);
    failSitePulls(bff, 1);
    engine.start();
    await until(() => engine.getStatus().pullFailure !== null);
    expect(sitePulls(bff)).toHaveLength(1);

    // The clock ran two days ahead and is put right while the pull waits its 0.75 s: by the
    // clock, the retry is two days off; by the wait it was given, it is due.
    vi.setSystemTime(Date.now() - 2 * 86_400_000);
    await pass(750);
    await until(() => engine.getStatus().pullFailure === null);
    expect(sitePulls(bff)).toHaveLength(2);
    const stored = await db.sites.toArray();
    expect(stored.map((s) => s.serverId).sort()).toEqual(twins.map((t) => t.id).sort());
  });

  it('waits for sign-in, not a timer, when the pull found the session expired', async () => {
    const { db, bff, engine } = retrying();
    bff.seed('site', site(1));
    let expired = true;
    bff.fault = (req) =>
      expired && isSitePull(req)
        ? { status: 401, code: 'reauth_required', message: 'Sign in again' }
        : null;

    engine.start();
    await until(() => engine.getStatus().paused);
    expect(engine.getStatus().paused).toBe(true);
    await pass(60_000);
    expect(sitePulls(bff)).toHaveLength(1);

    expired = false;
    engine.resume();
    await until(() => engine.getStatus().lastPullAt !== null);
    expect(sitePulls(bff)).toHaveLength(2);
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
  const showApp = () => document.dispatchEvent(new Event('visibilitychange'));

  it('pulls when its last pull is older than PULL_WHEN_SHOWN_AFTER_MS, not on a glance', async () => {
    const { db, bff, engine } = retrying();
    expect(document.visibilityState).toBe('visible');
    const first = bff.seed('site', { ...site(1), name: 'Twin Slough' });
    engine.start();
    await until(() => engine.getStatus().lastPullAt !== null);
    const pulledAt = engine.getStatus().lastPullAt!;
    expect(sitePulls(bff)).toHaveLength(1);
    const overnight = bff.seed('site', { ...site(2), name: 'Twin Slough' });

    await pass(PULL_WHEN_SHOWN_AFTER_MS - 1_000);
    showApp();
    await until(() => engine.getStatus().pulling === null);
    await pass(0);
    expect(sitePulls(bff)).toHaveLength(1);
    expect(await db.sites.count()).toBe(1);

    await pass(1_001);
    showApp();
    await until(() => engine.getStatus().lastPullAt !== pulledAt);
    expect(sitePulls(bff)).toHaveLength(2);
    const stored = await db.sites.toArray();
    expect(stored.map((s) => [s.serverId, s.code]).sort()).toEqual(
      [
        [first.id, '100001'],
        [overnight.id, '100002'],
      ].sort(),
    );
  });
});
