import { describe, expect, it, vi } from 'vitest';
import { COMMIT_WAIT_MS } from '../../../src/client/sync/pull-mark';
import { collection, pool, site } from './helpers/outbox-factory';
import { setupEngine } from './helpers/setup-engine';

/**
 * A parent made on the server while the tablet pulls, after the walk of its list and before the
 * walk of its children's: the child arrives first and finds no parent here. The parent comes with
 * the next pull, and the child must then show under it (not stay without a parent for good).
 */
const NOW = Date.parse('2026-07-20T12:00:00.000Z');

describe('a child pulled before its parent', () => {
  it('shows under its collection and site from the next pull', async () => {
    const { db, bff, engine } = setupEngine({ now: () => NOW, pull: { pageSize: 2 } });
    const s1 = bff.seed('site', site(1));
    bff.seed('collection', { ...collection('2026-07-14T00:00:00.000Z'), site: s1.id });
    bff.passTime(2 * COMMIT_WAIT_MS);
    await engine.pull();
    bff.passTime(2 * COMMIT_WAIT_MS);

    const late: Record<string, number> = {};
    const answer = bff.fetch;
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      const path = decodeURIComponent(String(input));
      if (!late.site && path.includes('/arthropod/collection?')) {
        // The sites are walked; a colleague adds a site and a collection there.
        late.site = bff.seed('site', site(2)).id;
        late.collection = bff.seed('collection', {
          ...collection('2026-07-15T00:00:00.000Z'),
          site: late.site,
        }).id;
      }
      if (!late.pool && path.includes('/arthropod/pool?')) {
        // The collections are walked; a colleague adds a collection and its pool.
        late.poolParent = bff.seed('collection', {
          ...collection('2026-07-16T00:00:00.000Z'),
          site: s1.id,
        }).id;
        late.pool = bff.seed('pool', {
          ...pool(),
          collection: late.poolParent,
          collection_date: '2026-07-16T00:00:00.000Z',
        }).id;
      }
      return answer(input, init);
    });
    await engine.pull();
    bff.passTime(60_000);
    await engine.pull();

    const byServer = (table: 'sites' | 'collections' | 'pools', id: number) =>
      db[table].where('serverId').equals(id).first();
    expect((await byServer('collections', late.collection))?.parentLocalId).toBe(
      (await byServer('sites', late.site))?.localId,
    );
    expect((await byServer('pools', late.pool))?.parentLocalId).toBe(
      (await byServer('collections', late.poolParent))?.localId,
    );
  });
});
