import { describe, expect, it, vi } from 'vitest';
import { createSyncEngine } from '../../../src/client/sync';
import { collection, queueCreate, queueUpdate, site } from './helpers/outbox-factory';
import { setupEngine } from './helpers/setup-engine';

const HOUR = 3_600_000;

describe('sites deleted on the server', () => {
  it('leave the tablet at the next hourly check, unless something of the user hangs on them', async () => {
    let now = Date.parse('2026-07-20T12:00:00.000Z');
    const { db, bff, engine } = setupEngine({ now: () => now, pull: { pageSize: 2 } });
    const [kept, deleted, edited, withChild] = [1, 2, 3, 4].map((n) => bff.seed('site', site(n)));
    await engine.pull();
    const local = async (serverId: number) =>
      (await db.sites.where('serverId').equals(serverId).first())!;
    await queueUpdate(db, 'site', (await local(edited.id)).localId, { name: 'Renamed here' });
    await queueCreate(db, 'collection', collection(), (await local(withChild.id)).localId);
    for (const s of [deleted, edited, withChild]) bff.records.get('site')!.delete(s.id);

    // Within the hour: no second check, the deleted sites are still listed on the tablet.
    now += HOUR / 2;
    await engine.pull();
    expect(await db.sites.count()).toBe(4);

    now += HOUR;
    await engine.pull();

    const names = (await db.sites.toArray()).map((s) => s.data.name).sort();
    expect(names).toEqual(['Renamed here', 'Site 1', 'Site 4']);
    expect(await db.sites.where('serverId').equals(kept.id).count()).toBe(1);
    const idCheck = bff.requests.filter((r) => r.path.includes('fields'));
    expect(idCheck.length).toBeGreaterThan(0);
    expect(decodeURIComponent(idCheck[idCheck.length - 1].path)).toContain('fields[]=id');
  });

  it('removes none when the upstream repeats a full first page, which may hide other sites', async () => {
    let now = Date.parse('2026-07-20T12:00:00.000Z');
    const { db, bff, engine } = setupEngine({ now: () => now, pull: { pageSize: 2 } });
    for (const n of [1, 2, 3]) bff.seed('site', site(n));
    await engine.pull();
    expect(await db.sites.count()).toBe(3);
    bff.variations = { ignorePage: true, noCount: true };

    now += 2 * HOUR;
    await engine.pull();

    expect(await db.sites.count()).toBe(3);
  });

  it('keeps a site another tab sends while this tab reads the list of ids', async () => {
    let now = Date.parse('2026-07-20T12:00:00.000Z');
    const { db, bff, engine } = setupEngine({ now: () => now });
    bff.seed('site', site(1));
    await engine.pull();
    const fresh = await queueCreate(db, 'site', site(2));
    // The other tab of the same user: same database, same lock, its own engine.
    const otherTab = createSyncEngine(db, { autoPull: false, channelName: null });
    const answer = bff.fetch;
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      const res = await answer(input, init);
      if (decodeURIComponent(String(input)).includes('fields[]=id')) {
        // The listing is read; before this tab acts on it, the other tab tries to send.
        otherTab.requestSync('save');
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
      return res;
    });

    now += 2 * HOUR;
    await engine.pull();
    await otherTab.settled();
    otherTab.stop();

    const row = await db.sites.get(fresh.localId);
    expect(row).toMatchObject({ syncState: 'synced' });
    expect(row?.serverId).toEqual(expect.any(Number));
    expect(await db.sites.count()).toBe(2);
  });
});
