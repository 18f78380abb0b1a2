import { describe, expect, it } from 'vitest';
import { DependentsNotConfirmedError } from '../../../src/client/sync';
import {
  collection,
  pool,
  queueCreate,
  queueUpdate,
  site,
  storeSynced,
} from './helpers/outbox-factory';
import { drain, setupEngine } from './helpers/setup-engine';

async function syncedSite(setup: ReturnType<typeof setupEngine>) {
  const server = setup.bff.seed('site', { ...site(1), comments: 'dry ditch', city: 'Davis' });
  const localId = await storeSynced(setup.db, 'site', server, {
    ...site(1),
    comments: 'dry ditch',
    city: 'Davis',
  });
  return { server, localId };
}

describe('edits', () => {
  it('sends only the changed fields with PUT', async () => {
    const setup = setupEngine();
    const { server, localId } = await syncedSite(setup);
    await queueUpdate(setup.db, 'site', localId, { comments: 'standing water' });
    await drain(setup.engine);
    const put = setup.bff.requests.find((r) => r.method === 'PUT');
    expect(put?.path).toBe(`/api/v1/site/${server.id}`);
    expect(put?.body).toEqual({ comments: 'standing water' });
    const row = await setup.db.sites.get(localId);
    expect(row).toMatchObject({ syncState: 'synced', server: { comments: 'standing water' } });
    expect(row?.baseUpdated).toBe(setup.bff.get('site', server.id)?.updated);
  });

  it('sends the edit when someone else changed only other fields on the server', async () => {
    const setup = setupEngine();
    const { server, localId } = await syncedSite(setup);
    await queueUpdate(setup.db, 'site', localId, { comments: 'standing water' });
    setup.bff.edit('site', server.id, { city: 'Woodland' });
    await drain(setup.engine);
    expect(setup.bff.get('site', server.id)).toMatchObject({
      comments: 'standing water',
      city: 'Woodland',
    });
    expect(await setup.db.outbox.count()).toBe(0);
  });

  it('marks a conflict, sends nothing, when a field the user changed also changed on the server', async () => {
    const setup = setupEngine();
    const { server, localId } = await syncedSite(setup);
    const entryId = await queueUpdate(setup.db, 'site', localId, {
      comments: 'standing water',
      city: 'Dixon',
    });
    setup.bff.edit('site', server.id, { comments: 'pump installed' });
    await drain(setup.engine);
    expect(setup.bff.requests.filter((r) => r.method === 'PUT')).toHaveLength(0);
    expect((await setup.db.outbox.get(entryId))?.state).toBe('conflict');
    const row = await setup.db.sites.get(localId);
    expect(row?.syncState).toBe('conflict');
    expect(row?.problem?.fields).toEqual([
      { path: 'comments', message: 'Also changed on the server' },
    ]);
    expect(row?.server).toMatchObject({ comments: 'pump installed' });
    expect(setup.engine.getStatus().conflict).toBe(1);
  });

  it('resolves a conflict field by field: theirs is taken locally, mine is sent', async () => {
    const setup = setupEngine();
    const { server, localId } = await syncedSite(setup);
    const entryId = await queueUpdate(setup.db, 'site', localId, {
      comments: 'standing water',
      name: 'Putah Creek N',
    });
    setup.bff.edit('site', server.id, { comments: 'pump installed', name: 'Putah Creek North' });
    await drain(setup.engine);
    expect((await setup.db.outbox.get(entryId))?.state).toBe('conflict');

    await setup.engine.resolveConflict(entryId, { comments: 'theirs', name: 'mine' });
    await setup.engine.settled();

    expect(setup.bff.get('site', server.id)).toMatchObject({
      comments: 'pump installed',
      name: 'Putah Creek N',
    });
    const put = setup.bff.requests.filter((r) => r.method === 'PUT');
    expect(put.map((r) => r.body)).toEqual([{ name: 'Putah Creek N' }]);
    const row = await setup.db.sites.get(localId);
    expect(row).toMatchObject({
      syncState: 'synced',
      problem: null,
      data: { comments: 'pump installed', name: 'Putah Creek N' },
    });
  });

  it('drops the edit when the user keeps every server value', async () => {
    const setup = setupEngine();
    const { server, localId } = await syncedSite(setup);
    const entryId = await queueUpdate(setup.db, 'site', localId, { comments: 'standing water' });
    setup.bff.edit('site', server.id, { comments: 'pump installed' });
    await drain(setup.engine);
    await setup.engine.resolveConflict(entryId, { comments: 'theirs' });
    expect(await setup.db.outbox.count()).toBe(0);
    expect(await setup.db.sites.get(localId)).toMatchObject({
      syncState: 'synced',
      data: { comments: 'pump installed' },
    });
  });

  it('does not take its own earlier edit for a conflict', async () => {
    const setup = setupEngine();
    const { server, localId } = await syncedSite(setup);
    await queueUpdate(setup.db, 'site', localId, { comments: 'first' });
    await queueUpdate(setup.db, 'site', localId, { comments: 'second' });
    await drain(setup.engine);
    expect(setup.bff.get('site', server.id)?.comments).toBe('second');
    expect(await setup.db.outbox.count()).toBe(0);
  });

  it('bases an edit made while the create was in flight on the created record', async () => {
    const setup = setupEngine();
    const s = await queueCreate(setup.db, 'site', site(1));
    await queueUpdate(setup.db, 'site', s.localId, { comments: 'added later' });
    await drain(setup.engine);
    const [created] = setup.bff.all('site');
    expect(created.comments).toBe('added later');
    expect(setup.bff.requests.map((r) => r.method)).toEqual(['POST', 'GET', 'PUT']);
  });
});

describe('discard', () => {
  it('lists the dependents of a parked entry and refuses to drop them unless confirmed', async () => {
    const { db, bff, engine } = setupEngine();
    const s = await queueCreate(db, 'site', site(1));
    const c = await queueCreate(db, 'collection', collection(), s.localId);
    const p = await queueCreate(db, 'pool', pool(), c.localId);
    bff.fault = () => ({ status: 409, code: 'site_code_taken' });
    await drain(engine);

    const dependents = await engine.dependentsOf(s.entryId);
    expect(dependents.map((d) => d.id)).toEqual([c.entryId, p.entryId]);
    await expect(engine.discard(s.entryId)).rejects.toBeInstanceOf(DependentsNotConfirmedError);
    await expect(engine.discard(s.entryId, [c.entryId])).rejects.toMatchObject({
      dependents: [{ id: p.entryId }],
    });
    expect(await db.outbox.count()).toBe(3);

    await engine.discard(s.entryId, [c.entryId, p.entryId]);
    expect(await db.outbox.count()).toBe(0);
    expect(await db.sites.count()).toBe(0);
    expect(await db.collections.count()).toBe(0);
    expect(await db.pools.count()).toBe(0);
    expect(engine.getStatus()).toMatchObject({ parked: 0, held: 0, pending: 0 });
  });

  it('discarding an edit puts the server values back', async () => {
    const setup = setupEngine();
    const { localId } = await syncedSite(setup);
    const entryId = await queueUpdate(setup.db, 'site', localId, { comments: 'standing water' });
    setup.bff.fault = () => ({ status: 422, code: 'validation_failed' });
    await drain(setup.engine);
    await setup.engine.discard(entryId);
    expect(await setup.db.sites.get(localId)).toMatchObject({
      syncState: 'synced',
      problem: null,
      data: { comments: 'dry ditch' },
    });
  });
});
