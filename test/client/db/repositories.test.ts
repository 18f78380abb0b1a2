import { afterEach, describe, expect, it } from 'vitest';
import { createCollection } from '../../../src/client/db/create-collection';
import { createPoolTest } from '../../../src/client/db/create-pool-test';
import { createPools } from '../../../src/client/db/create-pools';
import { createSite } from '../../../src/client/db/create-site';
import type { TraplineDb } from '../../../src/client/db/database';
import { deleteCollection } from '../../../src/client/db/delete-collection';
import { deleteSite } from '../../../src/client/db/delete-site';
import { RepositoryError } from '../../../src/client/db/repository-error';
import { updateCollection } from '../../../src/client/db/update-collection';
import { updateSite } from '../../../src/client/db/update-site';
import { makeCollection, makeDb, makePool, makeSite } from './factories';

let db: TraplineDb;
afterEach(async () => {
  await db?.delete();
});

/** What the sync engine does when it starts sending an entry. */
async function freeze(id: string) {
  await db.outbox.update(id, { frozen: true, state: 'sending' });
}
/** What the sync engine does after a 2xx for a create. */
async function acknowledgeCreate(
  entryId: string,
  serverId: number,
  updated = '2026-07-14T14:00:00.000Z',
) {
  const entry = (await db.outbox.get(entryId))!;
  const table =
    entry.entity === 'site' ? db.sites : entry.entity === 'collection' ? db.collections : db.pools;
  const row = (await table.get(entry.localId))!;
  await table.update(entry.localId, {
    serverId,
    server: { ...row.data, id: serverId, updated } as never,
    baseUpdated: updated,
    syncState: 'synced',
  });
  await db.outbox.delete(entryId);
}
/** What the sync engine does after a 422. */
async function park(entryId: string, fields: { path: string; message: string }[]) {
  const entry = (await db.outbox.get(entryId))!;
  await db.outbox.update(entryId, {
    frozen: true,
    state: 'parked',
    lastError: {
      status: 422,
      reason: 'rejected',
      body: { code: 'validation_failed', message: 'bad', fields },
      at: Date.now(),
    },
  });
  await db.sites.update(entry.localId, {
    syncState: 'failed',
    problem: { code: 'validation_failed', message: 'bad', fields },
  });
}

describe('creating records', () => {
  it('writes the record and its create entry together, with the parent named by localId', async () => {
    db = makeDb();
    const siteId = await createSite(db, makeSite());
    const collectionId = await createCollection(db, siteId, makeCollection());

    const site = (await db.sites.get(siteId))!;
    expect(site).toMatchObject({
      serverId: null,
      syncState: 'queued',
      code: '104233',
      name: 'Putah Creek N',
      problem: null,
    });
    const entries = await db.outbox.toArray();
    expect(entries).toHaveLength(2);
    const siteEntry = entries.find((e) => e.localId === siteId)!;
    const collectionEntry = entries.find((e) => e.localId === collectionId)!;
    expect(siteEntry).toMatchObject({
      op: 'create',
      state: 'pending',
      frozen: false,
      attempts: 0,
      refs: [],
      dependsOn: [],
    });
    expect(siteEntry.ownerKey).toBe(db.name);
    expect(collectionEntry.payload).not.toHaveProperty('site');
    expect(collectionEntry.refs).toEqual([{ field: 'site', entity: 'site', localId: siteId }]);
    expect(collectionEntry.dependsOn).toEqual([siteEntry.id]);
    expect((await db.collections.get(collectionId))!.parentLocalId).toBe(siteId);
  });

  it('still refers to an already synced parent through refs, with nothing to wait for', async () => {
    db = makeDb();
    const siteId = await createSite(db, makeSite());
    const [siteEntry] = await db.outbox.toArray();
    await acknowledgeCreate(siteEntry.id, 7);
    const collectionId = await createCollection(db, siteId, makeCollection());
    const entry = (await db.outbox.where('localId').equals(collectionId).first())!;
    expect(entry.refs).toEqual([{ field: 'site', entity: 'site', localId: siteId }]);
    expect(entry.dependsOn).toEqual([]);
    expect(entry.payload).not.toHaveProperty('site');
  });

  it('writes neither record nor outbox entry when the transaction fails midway', async () => {
    db = makeDb();
    db.outbox.hook('creating', () => {
      throw new Error('disk full');
    });
    await expect(createSite(db, makeSite())).rejects.toThrow('disk full');
    expect(await db.sites.count()).toBe(0);
    expect(await db.outbox.count()).toBe(0);
  });

  it('saves several pools all together or not at all', async () => {
    db = makeDb();
    const siteId = await createSite(db, makeSite());
    const collectionId = await createCollection(db, siteId, makeCollection());
    await expect(
      createPools(db, collectionId, [makePool(), makePool({ num_count: 0 })]),
    ).rejects.toBeInstanceOf(RepositoryError);
    expect(await db.pools.count()).toBe(0);

    let calls = 0;
    db.pools.hook('creating', () => {
      calls += 1;
      if (calls === 2) throw new Error('quota exceeded');
    });
    await expect(
      createPools(db, collectionId, [makePool(), makePool({ num_count: 20 })]),
    ).rejects.toThrow('quota exceeded');
    expect(await db.pools.count()).toBe(0);
    expect(await db.outbox.filter((e) => e.entity === 'pool').count()).toBe(0);
  });

  it('saves a pool test that waits on its pool', async () => {
    db = makeDb();
    const siteId = await createSite(db, makeSite());
    const collectionId = await createCollection(db, siteId, makeCollection());
    const [poolId] = await createPools(db, collectionId, [makePool()]);
    const testId = await createPoolTest(db, poolId, {
      method: 1,
      target: 1,
      status: 1,
      test_date: '2026-07-20',
      test_agency: 1,
      value: 31.2,
    });
    const entry = (await db.outbox.where('localId').equals(testId).first())!;
    const poolEntry = (await db.outbox.where('localId').equals(poolId).first())!;
    expect(entry.refs).toEqual([{ field: 'pool', entity: 'pool', localId: poolId }]);
    expect(entry.dependsOn).toEqual([poolEntry.id]);
  });

  it('refuses data the service would refuse, writing nothing', async () => {
    db = makeDb();
    const error = await createSite(
      db,
      makeSite({ code: '12', shape: { type: 'Point', coordinates: [38.58, -121.49] } }),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RepositoryError);
    expect((error as RepositoryError).fields.map((f) => f.path)).toEqual([
      'code',
      'shape.coordinates',
    ]);
    expect(await db.sites.count()).toBe(0);
    expect(await db.outbox.count()).toBe(0);
  });
});

describe('editing records', () => {
  it('edits an unsent create in place: same entry, same key, new payload', async () => {
    db = makeDb();
    const siteId = await createSite(db, makeSite());
    const [before] = await db.outbox.toArray();
    await updateSite(db, siteId, makeSite({ name: 'Putah Creek North' }));
    const entries = await db.outbox.toArray();
    expect(entries).toHaveLength(1);
    expect(entries[0].id).toBe(before.id);
    expect(entries[0].payload.name).toBe('Putah Creek North');
    expect((await db.sites.get(siteId))!.name).toBe('Putah Creek North');
  });

  it('queues an update with only the changed fields once the create is being sent', async () => {
    db = makeDb();
    const siteId = await createSite(db, makeSite());
    const [create] = await db.outbox.toArray();
    await freeze(create.id);
    await updateSite(db, siteId, makeSite({ name: 'Putah Creek North', city: 'Davis' }));
    const entries = await db.outbox.toArray();
    expect(entries).toHaveLength(2);
    // Both entries may carry the same millisecond: find them by what they are, not by order.
    expect(entries.find((e) => e.op === 'create')!.payload.name).toBe('Putah Creek N');
    const update = entries.find((e) => e.op === 'update')!;
    expect(update.payload).toEqual({ name: 'Putah Creek North', city: 'Davis' });
    expect(update.dependsOn).toEqual([create.id]);
  });

  it('bases an update of a synced record on the server version of the changed fields', async () => {
    db = makeDb();
    const siteId = await createSite(db, makeSite());
    const collectionId = await createCollection(db, siteId, makeCollection());
    for (const e of await db.outbox.orderBy('createdAt').toArray())
      await acknowledgeCreate(e.id, e.entity === 'site' ? 7 : 9);

    await updateCollection(db, collectionId, makeCollection({ num_trap: 2 }));
    const [update] = await db.outbox.toArray();
    expect(update).toMatchObject({
      op: 'update',
      payload: { num_trap: 2 },
      baseUpdated: '2026-07-14T14:00:00.000Z',
      baseValues: { num_trap: 1 },
      dependsOn: [],
    });
    expect((await db.collections.get(collectionId))!.syncState).toBe('queued');
  });

  it('writes nothing when an edit changes nothing', async () => {
    db = makeDb();
    const siteId = await createSite(db, makeSite());
    const [create] = await db.outbox.toArray();
    await freeze(create.id);
    expect(await updateSite(db, siteId, makeSite())).toBe(false);
    expect(await db.outbox.count()).toBe(1);
  });

  it('gives a fixed parked create a new Idempotency-Key and moves its dependents to it', async () => {
    db = makeDb();
    const siteId = await createSite(db, makeSite());
    const collectionId = await createCollection(db, siteId, makeCollection());
    const siteEntry = (await db.outbox.where('localId').equals(siteId).first())!;
    await park(siteEntry.id, [
      { path: 'code', message: "Site code 104233 is already used by 'Putah Creek N'" },
    ]);

    await updateSite(db, siteId, makeSite({ code: '104234' }));

    const fixed = (await db.outbox.where('localId').equals(siteId).first())!;
    expect(fixed.id).not.toBe(siteEntry.id);
    expect(fixed).toMatchObject({
      op: 'create',
      state: 'pending',
      frozen: false,
      attempts: 0,
      lastError: null,
    });
    expect(fixed.payload.code).toBe('104234');
    expect(await db.outbox.get(siteEntry.id)).toBeUndefined();
    const child = (await db.outbox.where('localId').equals(collectionId).first())!;
    expect(child.dependsOn).toEqual([fixed.id]);
    const site = (await db.sites.get(siteId))!;
    expect(site).toMatchObject({ problem: null, syncState: 'queued', code: '104234' });
  });
});

describe('deleting records', () => {
  it('removes a never-sent record and its entry outright', async () => {
    db = makeDb();
    const siteId = await createSite(db, makeSite());
    const collectionId = await createCollection(db, siteId, makeCollection());
    expect(await deleteCollection(db, collectionId)).toBe('removed');
    expect(await db.collections.count()).toBe(0);
    expect(await db.outbox.count()).toBe(1);
  });

  it('refuses to remove a never-sent record that unsent children hang on, naming them', async () => {
    db = makeDb();
    const siteId = await createSite(db, makeSite());
    await createCollection(db, siteId, makeCollection({ collection_date: '2026-07-14' }));
    const error = (await deleteSite(db, siteId).catch((e: unknown) => e)) as RepositoryError;
    expect(error.reason).toBe('has_children');
    expect(error.message).toContain('collection of 2026-07-14');
    expect(await db.sites.count()).toBe(1);
    expect(await db.outbox.count()).toBe(2);
  });

  it('queues a delete for a synced record and marks it deleted until acknowledged', async () => {
    db = makeDb();
    const siteId = await createSite(db, makeSite());
    const collectionId = await createCollection(db, siteId, makeCollection());
    for (const e of await db.outbox.orderBy('createdAt').toArray())
      await acknowledgeCreate(e.id, e.entity === 'site' ? 7 : 9);
    expect(await deleteCollection(db, collectionId)).toBe('queued');
    const [entry] = await db.outbox.toArray();
    expect(entry).toMatchObject({ op: 'delete', localId: collectionId, payload: {} });
    expect((await db.collections.get(collectionId))!.deleted).toBe(true);
  });
});
