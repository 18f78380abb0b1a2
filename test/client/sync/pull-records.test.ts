import { describe, expect, it, vi } from 'vitest';
import { collection, queueCreate, queueUpdate, site } from './helpers/outbox-factory';
import { sitePulls } from './helpers/fake-bff';
import { drain, setupEngine } from './helpers/setup-engine';
import { COMMIT_WAIT_MS } from '../../../src/client/sync/pull-mark';

const NOW = Date.parse('2026-07-20T12:00:00.000Z');

describe('pull', () => {
  it('brings every site of the agency page by page, and the last 30 days of collections', async () => {
    const { db, bff, engine } = setupEngine({ now: () => NOW, pull: { pageSize: 2 } });
    const sites = [1, 2, 3, 4, 5].map((n) => bff.seed('site', site(n)));
    bff.seed('collection', { ...collection('2026-07-10T00:00:00.000Z'), site: sites[0].id });
    bff.seed('collection', { ...collection('2026-05-01T00:00:00.000Z'), site: sites[0].id });

    await engine.pull();

    expect(await db.sites.count()).toBe(5);
    const pages = sitePulls(bff).map((r) => new URL(r.path, 'http://x').searchParams.get('page'));
    expect(pages).toEqual(['1', '2', '3']);
    const rows = await db.collections.toArray();
    expect(rows).toHaveLength(1);
    const siteRow = await db.sites.where('serverId').equals(sites[0].id).first();
    expect(rows[0]).toMatchObject({
      syncState: 'synced',
      parentLocalId: siteRow?.localId,
      collectionDate: '2026-07-10T00:00:00.000Z',
    });
    expect(rows[0].data).not.toHaveProperty('site');
    expect(rows[0].data).toMatchObject({ num_trap: 1, trap: 2, trap_nights: 1 });
    expect(siteRow).toMatchObject({ code: '100001', name: 'Site 1', data: { code: '100001' } });
    const collectionQuery = bff.requests.find((r) => r.entity === 'collection')!.path;
    expect(decodeURIComponent(collectionQuery)).toContain(
      'query[collection_date][$gte]=2026-06-20',
    );
    expect(engine.getStatus().lastPullAt).toBe(NOW);
  });

  it('asks only for what changed since the last pull', async () => {
    const { db, bff, engine } = setupEngine({ now: () => NOW });
    const first = bff.seed('site', site(1));
    const firstUpdated = first.updated;
    // Written long enough before the pull that no write stamped before it can still commit.
    bff.passTime(COMMIT_WAIT_MS);
    await engine.pull();
    bff.edit('site', first.id, { name: 'Renamed' });
    bff.seed('site', site(2));
    await engine.pull();
    const second = sitePulls(bff)[1].path;
    expect(decodeURIComponent(second)).toContain(`query[updated][$gt]=${firstUpdated}`);
    expect((await db.sites.where('serverId').equals(first.id).first())?.name).toBe('Renamed');
    expect(await db.sites.count()).toBe(2);
  });

  it('asks again for what was written just before the last pull, where a late commit may land', async () => {
    const { db, bff, engine } = setupEngine({ now: () => NOW });
    const first = bff.seed('site', site(1));
    bff.passTime(60_000);
    await engine.pull();
    // The pull read the list one minute after the newest write: writes stamped up to ten minutes
    // before that may still commit, so the next pull starts there, not at the newest `updated`.
    const listedAt = Date.parse(first.updated) + 60_000;
    bff.seed('site', site(2));
    await engine.pull();
    const second = decodeURIComponent(sitePulls(bff)[1].path);
    expect(second).toContain(
      `query[updated][$gt]=${new Date(listedAt - COMMIT_WAIT_MS).toISOString()}`,
    );
    // The site listed again is stored once.
    expect(await db.sites.count()).toBe(2);
  });

  it('never overwrites a record with a local change that is not on the server yet', async () => {
    const { db, bff, engine } = setupEngine({ now: () => NOW });
    const server = bff.seed('site', site(1));
    await engine.pull();
    const row = (await db.sites.where('serverId').equals(server.id).first())!;
    await queueUpdate(db, 'site', row.localId, { name: 'My local name' });
    bff.edit('site', server.id, { name: 'Office name', city: 'Davis' });

    await engine.pull();

    const after = await db.sites.get(row.localId);
    expect(after).toMatchObject({ syncState: 'queued', data: { name: 'My local name' } });
    expect(after?.server).not.toMatchObject({ name: 'Office name' });
  });

  it('keeps one local copy when a pull saw a record whose create answer was lost', async () => {
    const { db, bff, engine } = setupEngine({
      backoff: { baseMs: 500, capMs: 500 },
      random: () => 0.99,
    });
    const s = await queueCreate(db, 'site', site(1));
    let lost = true;
    bff.fault = (req) => {
      if (req.method === 'POST' && lost) {
        lost = false;
        return 'drop-after';
      }
      return null;
    };
    engine.requestSync('test');
    // The create reached the server but the tablet does not know yet; a pull copies it.
    await vi.waitFor(async () => expect((await db.outbox.get(s.entryId))?.attempts).toBe(1));
    await engine.pull();
    expect(await db.sites.count()).toBe(2);
    await drain(engine);
    const rows = await db.sites.toArray();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      localId: s.localId,
      syncState: 'synced',
      serverId: bff.all('site')[0].id,
    });
  });

  it('pauses the queue when the pull needs sign-in', async () => {
    const { bff, engine } = setupEngine({ now: () => NOW });
    bff.fault = () => ({ status: 401, code: 'reauth_required' });
    await expect(engine.pull()).rejects.toMatchObject({ reason: 'reauth' });
    expect(engine.getStatus().paused).toBe(true);
  });

  it('stops and keeps every site when the upstream ignores paging and sends no count', async () => {
    const { db, bff, engine } = setupEngine({ now: () => NOW, pull: { pageSize: 2 } });
    for (const n of [1, 2, 3, 4, 5]) bff.seed('site', site(n));
    bff.variations = { ignorePaging: true, noCount: true };
    // A runaway loop fails the test quickly instead of hanging it.
    bff.fault = () => (bff.requests.length > 20 ? { status: 500 } : null);

    await engine.pull();

    expect(await db.sites.count()).toBe(5);
    expect(sitePulls(bff)).toHaveLength(2);
  });

  it('reads a list sent as a bare array', async () => {
    const { db, bff, engine } = setupEngine({ now: () => NOW, pull: { pageSize: 2 } });
    for (const n of [1, 2, 3]) bff.seed('site', site(n));
    bff.variations = { bareArray: true };

    await engine.pull();

    expect((await db.sites.toArray()).map((r) => r.name).sort()).toEqual([
      'Site 1',
      'Site 2',
      'Site 3',
    ]);
  });

  it('pulls again when Sync now is pressed while a pull is running', async () => {
    const { db, bff, engine } = setupEngine({ now: () => NOW, autoPull: true });
    const server = bff.seed('site', site(1));
    const realFetch = bff.fetch;
    let renamed = false;
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
      const response = await realFetch(input, init);
      // The start pull has read the site list; the site is renamed on the server and the
      // technician taps Sync now before that pull ends.
      if (!renamed && String(input).includes('/api/v1/site?')) {
        renamed = true;
        bff.edit('site', server.id, { name: 'Renamed on the server' });
        engine.requestSync('manual');
      }
      return response;
    });

    engine.start();
    await vi.waitFor(() => expect(renamed).toBe(true));
    await engine.settled();

    expect(await db.sites.where('serverId').equals(server.id).first()).toMatchObject({
      name: 'Renamed on the server',
    });
  });
});
