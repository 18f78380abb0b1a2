import { describe, expect, it, vi } from 'vitest';
import { createPool } from '../../../src/client/db/create-pool';
import { collection, pool, site } from './helpers/outbox-factory';
import { setupEngine } from './helpers/setup-engine';

/**
 * The hourly check for collections and pools deleted in the office, in orders of events the real
 * stack cannot give: the technician saving under a deleted collection while its ids are listed,
 * and an upstream whose listing may hide records.
 */
const HOUR = 3_600_000;
const NOW = Date.parse('2026-07-20T12:00:00.000Z');

function seeded() {
  let now = NOW;
  const setup = setupEngine({ now: () => now, pull: { pageSize: 2 } });
  const { bff } = setup;
  const s = bff.seed('site', site(1));
  // Three look-alikes: same site, day and trap; each with an equal pool.
  const made = [1, 2, 3].map(() => {
    const c = bff.seed('collection', { ...collection('2026-07-14T00:00:00.000Z'), site: s.id });
    const p = bff.seed('pool', {
      ...pool(),
      collection: c.id,
      collection_date: '2026-07-14T00:00:00.000Z',
    });
    return { c, p };
  });
  const later = (ms: number) => {
    now += ms;
  };
  return { ...setup, made, later };
}

const localOf = async (db: ReturnType<typeof setupEngine>['db'], serverId: number) =>
  (await db.collections.where('serverId').equals(serverId).first())?.localId;

describe('collections deleted in the office, in awkward orders', () => {
  it('keeps a deleted collection the technician saves a pool under while its ids are listed', async () => {
    const { db, bff, engine, made, later } = seeded();
    await engine.pull();
    const target = (await localOf(db, made[0].c.id))!;
    for (const { c } of made.slice(0, 2)) bff.records.get('collection')!.delete(c.id);
    for (const { p } of made.slice(0, 2)) bff.records.get('pool')!.delete(p.id);
    let saved: string | null = null;
    const answer = bff.fetch;
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      const res = await answer(input, init);
      const path = decodeURIComponent(String(input));
      if (!saved && path.includes('/arthropod/collection?') && path.includes('fields[]=id')) {
        // The listing is read; before the pull acts on it, the technician saves a pool.
        saved = await createPool(db, target, { species: 1, sex: 1, num_count: 3 });
      }
      return res;
    });

    later(HOUR + 1);
    await engine.pull();

    expect(saved).not.toBeNull();
    expect(await db.collections.get(target)).toBeDefined();
    expect(await db.pools.get(saved!)).toMatchObject({
      parentLocalId: target,
      syncState: 'queued',
    });
    // The other deleted look-alike, with nothing of the technician's, goes with its pool.
    expect(await localOf(db, made[1].c.id)).toBeUndefined();
    expect(await db.pools.where('serverId').equals(made[1].p.id).count()).toBe(0);
    expect(await localOf(db, made[2].c.id)).toBeDefined();
    expect(await db.pools.where('serverId').equals(made[2].p.id).count()).toBe(1);
  });

  it('removes none when the upstream repeats a full page of ids, which may hide others', async () => {
    const { db, bff, engine, made, later } = seeded();
    await engine.pull();
    bff.records.get('collection')!.delete(made[2].c.id);
    bff.records.get('pool')!.delete(made[2].p.id);
    bff.variations = { ignorePage: true, noCount: true };

    later(HOUR + 1);
    await engine.pull();

    expect(await db.collections.count()).toBe(3);
    expect(await db.pools.count()).toBe(3);
  });

  it('costs nothing when the tablet holds no synced collection of the window', async () => {
    const { db, bff, engine, later } = seeded();
    bff.records.get('collection')!.clear();
    bff.records.get('pool')!.clear();
    await engine.pull();
    expect(await db.collections.count()).toBe(0);
    later(HOUR + 1);
    const before = bff.requests.length;
    await engine.pull();
    const paths = bff.requests.slice(before).map((r) => decodeURIComponent(r.path));
    expect(paths.filter((p) => p.includes('/arthropod/') && p.includes('fields[]=id'))).toEqual([]);
  });
});
