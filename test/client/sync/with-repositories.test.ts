import { describe, expect, it, vi } from 'vitest';
import { createRecords } from '../../../src/client/db/create-records';
import { deleteRecord } from '../../../src/client/db/delete-record';
import { updateRecord } from '../../../src/client/db/update-record';
import { collection, pool, site } from './helpers/outbox-factory';
import { drain, setupEngine } from './helpers/setup-engine';

/** The engine with the client-app's real repositories writing the outbox (outbox-rules.md). */
describe('sync engine with the repositories', () => {
  it('a fixed parked site goes out under a new key and releases what waited on it', async () => {
    const { db, bff, engine } = setupEngine();
    const [siteId] = await createRecords(db, 'site', [{ data: site(1), parentLocalId: null }]);
    const [collectionId] = await createRecords(db, 'collection', [
      { data: collection(), parentLocalId: siteId },
    ]);
    await createRecords(db, 'pool', [{ data: pool(), parentLocalId: collectionId }]);
    bff.fault = (req) =>
      req.entity === 'site' && (req.body as { code: string }).code === '100001'
        ? { status: 409, code: 'site_code_taken', message: 'Site code 100001 is already used' }
        : null;
    await drain(engine);
    const parked = (await db.outbox.toArray()).find((e) => e.state === 'parked')!;
    expect(engine.getStatus()).toMatchObject({ parked: 1, held: 2 });

    await updateRecord(db, 'site', siteId, { ...site(1), code: '100099' });
    const fixed = (await db.outbox.toArray()).find((e) => e.entity === 'site')!;
    expect(fixed.id).not.toBe(parked.id);
    await drain(engine);

    expect(await db.outbox.count()).toBe(0);
    expect(bff.postsFor(fixed.id)).toBe(1);
    const [serverSite] = bff.all('site');
    expect(serverSite.code).toBe('100099');
    expect(bff.all('collection')[0].site).toBe(serverSite.id);
    expect(bff.all('pool')[0].collection).toBe(bff.all('collection')[0].id);
    expect(await db.sites.get(siteId)).toMatchObject({ syncState: 'synced', problem: null });
  });

  it('an edit saved while the create is being sent is sent after it as an update', async () => {
    const { db, bff, engine } = setupEngine({}, 150);
    const [siteId] = await createRecords(db, 'site', [{ data: site(1), parentLocalId: null }]);
    engine.requestSync('save');
    await vi.waitFor(() => expect(bff.requests).toHaveLength(1), { interval: 5 });
    expect((await db.outbox.toArray())[0].frozen).toBe(true);
    await updateRecord(db, 'site', siteId, { ...site(1), name: 'Putah Creek N' });
    engine.requestSync('save');
    await engine.settled();

    const [created] = bff.all('site');
    expect(created.name).toBe('Putah Creek N');
    expect(bff.requests.map((r) => r.method)).toEqual(['POST', 'GET', 'PUT']);
    expect(bff.requests[0].body).toMatchObject({ name: 'Site 1' });
    expect(bff.requests[2].body).toEqual({ name: 'Putah Creek N' });
    expect(await db.sites.get(siteId)).toMatchObject({ syncState: 'synced', serverId: created.id });
  });

  it('a deleted synced record is deleted on the server and leaves the tablet', async () => {
    const { db, bff, engine } = setupEngine();
    const [siteId] = await createRecords(db, 'site', [{ data: site(1), parentLocalId: null }]);
    await drain(engine);
    expect(await deleteRecord(db, 'site', siteId)).toBe('queued');
    await drain(engine);
    expect(bff.all('site')).toHaveLength(0);
    expect(await db.sites.get(siteId)).toBeUndefined();
  });
});
