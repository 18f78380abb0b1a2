import { describe, expect, it, vi } from 'vitest';
import { isSitePull, sitePulls } from './helpers/fake-bff';
import { settleIo } from './helpers/fake-time';
import { queueCreate, site } from './helpers/outbox-factory';
import { setupEngine } from './helpers/setup-engine';

/**
 * The page's idle callbacks, run when the test says the page is idle (jsdom has none of its
 * own). The engine's start waits for the first one (lib/when-idle `whenPageSettled`).
 */
function pageIdleByHand() {
  const waiting = new Map<number, IdleRequestCallback>();
  let next = 1;
  vi.stubGlobal('requestIdleCallback', (callback: IdleRequestCallback) => {
    waiting.set(next, callback);
    return next++;
  });
  vi.stubGlobal('cancelIdleCallback', (id: number) => waiting.delete(id));
  return {
    get waiting() {
      return waiting.size;
    },
    run() {
      const callbacks = [...waiting.values()];
      waiting.clear();
      for (const callback of callbacks) callback({ didTimeout: false, timeRemaining: () => 50 });
    },
  };
}

/**
 * Home's first second on a tablet (issue 40): the sync of the app's start drained and pulled on
 * the page's thread while Home was drawn, in long tasks a tap waited on. It now waits until the
 * page is idle. What the technician asks for does not wait.
 */
describe('the sync at app start', () => {
  it('waits for the page to be idle, then sends the unsent site and brings the office’s', async () => {
    const idle = pageIdleByHand();
    const { db, bff, engine } = setupEngine({ autoPull: true });
    bff.seed('site', { ...site(1), name: 'Office Slough' });
    await queueCreate(db, 'site', { ...site(2), name: 'Tablet Marsh' });

    engine.start();
    await settleIo();
    expect(bff.requests).toEqual([]);
    expect(await db.outbox.count()).toBe(1);
    expect(idle.waiting).toBe(1);

    idle.run();
    await vi.waitFor(async () => expect(await db.outbox.count()).toBe(0));
    await vi.waitFor(() => expect(engine.getStatus().lastPullAt).not.toBeNull());
    const names = (await db.sites.toArray()).map((s) => s.name).sort();
    expect(names).toEqual(['Office Slough', 'Tablet Marsh']);
  });

  it('does not hold Sync now: it syncs at once, and the start pulls no second time', async () => {
    const idle = pageIdleByHand();
    const { db, bff, engine } = setupEngine({ autoPull: true });
    bff.seed('site', { ...site(1), name: 'Office Slough' });

    engine.start();
    engine.requestSync('manual');
    await vi.waitFor(() => expect(engine.getStatus().lastPullAt).not.toBeNull());
    expect(sitePulls(bff)).toHaveLength(1);
    expect((await db.sites.toArray()).map((s) => s.name)).toEqual(['Office Slough']);

    // The page becomes idle: the start's sync was Sync now's, and is not made again.
    idle.run();
    await settleIo();
    await engine.settled();
    expect(sitePulls(bff)).toHaveLength(1);
  });

  it('does not hold a save: its entry is sent at once', async () => {
    pageIdleByHand();
    const { db, bff, engine } = setupEngine({ autoPull: true });
    engine.start();
    await queueCreate(db, 'site', { ...site(3), name: 'Saved Now Pond' });
    engine.requestSync('save');
    await vi.waitFor(async () => expect(await db.outbox.count()).toBe(0));
    expect(bff.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
    // A save asks for no pull: the office's changes come with the start's sync, once idle.
    expect(bff.requests.filter(isSitePull)).toEqual([]);
  });
});
