import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TraplineDb } from '../../../src/client/db/database';
import { EMPTY_LOOKUPS, refreshLookups } from '../../../src/client/db/refresh-lookups';
import { makeDb } from './factories';

/**
 * The lookups' refresh runs unawaited at every start and every return of signal
 * (signed-in-app: `void refreshLookups(db)`): a rejection there is an unhandled one. When the
 * database cannot be read or written (the user signed out and it closed as the refresh began,
 * another tab upgraded it, the tablet's storage went), the refresh has failed: it says so and
 * keeps the cache as it is, the same answer as a failed request.
 */
describe('refreshing the lookups when the tablet database is gone', () => {
  let db: TraplineDb | undefined;
  afterEach(async () => {
    vi.unstubAllGlobals();
    await db?.delete();
  });

  it('reports failed, without a rejection, when the database is closed for good', async () => {
    db = makeDb();
    await db.open();
    db.close({ disableAutoOpen: true });
    const fetched = vi.fn();
    vi.stubGlobal('fetch', fetched);
    await expect(refreshLookups(db)).resolves.toBe('failed');
  });

  it('reports failed when the answer came but cannot be stored', async () => {
    db = makeDb();
    await db.lookups.put({
      key: 'lookups',
      etag: '"v1"',
      document: EMPTY_LOOKUPS,
      storedAt: 0,
    });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        // The database closes while the request is on its way (a sign-out on this tablet).
        db!.close({ disableAutoOpen: true });
        return new Response(null, { status: 304, headers: { ETag: '"v1"' } });
      }),
    );
    await expect(refreshLookups(db)).resolves.toBe('failed');
  });
});
