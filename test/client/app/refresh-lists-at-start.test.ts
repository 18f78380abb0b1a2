import { afterEach, describe, expect, it, vi } from 'vitest';
import { refreshListsAtStart } from '../../../src/client/app/refresh-lists-at-start';
import { openUserDb } from '../../../src/client/db/database';
import { LOOKUPS } from '../lookups-fixture';

const owner = { agencyId: 1, username: `tech-${Math.random().toString(36).slice(2)}` };

/** A page that is never idle: its idle callbacks are never called. */
function neverIdle() {
  vi.stubGlobal('requestIdleCallback', () => 1);
  vi.stubGlobal('cancelIdleCallback', () => undefined);
}

afterEach(async () => {
  vi.unstubAllGlobals();
  await openUserDb(owner).delete();
});

/**
 * The start's refresh of the lookups waits for the page to settle when the tablet has lookups
 * (issue 40), but not on a first sign-in: with no lookups no form can be filled.
 */
describe('the lookups refresh at app start', () => {
  it('asks at once on a tablet without lookups, even on a page not yet idle', async () => {
    neverIdle();
    const db = openUserDb(owner);
    const refresh = vi.fn();
    refreshListsAtStart(db, refresh);
    await vi.waitFor(() => expect(refresh).toHaveBeenCalledTimes(1));
  });

  it('waits for the page to be idle on a tablet that has them', async () => {
    const idle: IdleRequestCallback[] = [];
    vi.stubGlobal('requestIdleCallback', (callback: IdleRequestCallback) => idle.push(callback));
    vi.stubGlobal('cancelIdleCallback', () => undefined);
    const db = openUserDb(owner);
    await db.lookups.put({ key: 'lookups', etag: '"v1"', document: LOOKUPS, storedAt: Date.now() });
    const refresh = vi.fn();
    refreshListsAtStart(db, refresh);
    await vi.waitFor(() => expect(idle).toHaveLength(1));
    expect(refresh).not.toHaveBeenCalled();

    idle[0]({ didTimeout: false, timeRemaining: () => 50 });
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it('asks nothing once cancelled (the signed-in app gone)', async () => {
    neverIdle();
    const db = openUserDb(owner);
    const refresh = vi.fn();
    refreshListsAtStart(db, refresh)();
    await db.lookups.count();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(refresh).not.toHaveBeenCalled();
  });
});
