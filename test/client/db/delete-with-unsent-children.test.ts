import { describe, expect, it } from 'vitest';
import { createPool } from '../../../src/client/db/create-pool';
import { createPoolTest } from '../../../src/client/db/create-pool-test';
import type { TraplineDb } from '../../../src/client/db/database';
import { deleteCollection } from '../../../src/client/db/delete-collection';
import { RepositoryError } from '../../../src/client/db/repository-error';
import { storePulledRows } from '../../../src/client/sync/store-pulled-rows';
import { makeDb, makePool } from './factories';

/**
 * A site and a collection the server already has (as a pull stores them), and a pool of 50 of
 * it when `withPool`: the server retires a collection's pools with it (contract §6), and refuses
 * a pool or a test under a retired collection or pool.
 */
async function syncedCollection(db: TraplineDb, withPool: boolean) {
  await storePulledRows(db, Date.now(), 'site', [
    { id: 7, code: '104233', name: 'Putah Creek N', agency: 1, updated: '2026-07-01T00:00:00Z' },
  ]);
  await storePulledRows(db, Date.now(), 'collection', [
    {
      id: 9,
      collection_date: '2026-07-14T13:30:00.000Z',
      num_trap: 1,
      trap: 2,
      trap_nights: 1,
      site: 7,
      agency: 1,
      arthropods: [{ id: 5, species: 1, sex: 1, num_count: 120 }],
      updated: '2026-07-14T14:00:00.000Z',
    },
  ]);
  if (withPool)
    await storePulledRows(db, Date.now(), 'pool', [
      { id: 30, collection: 9, species: 1, sex: 1, num_count: 50, agency: 1 },
    ]);
  const collectionId = (await db.collections.where('serverId').equals(9).first())!.localId;
  const poolId = (await db.pools.where('serverId').equals(30).first())?.localId ?? null;
  return { collectionId, poolId };
}

async function refusal(p: Promise<unknown>): Promise<RepositoryError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(RepositoryError);
  return e as RepositoryError;
}

describe('deleting a collection the server has, with unsent work under it', () => {
  it('refuses while a pool made offline is not sent, naming it: nothing is queued', async () => {
    const db = makeDb();
    const { collectionId } = await syncedCollection(db, false);
    const poolId = await createPool(db, collectionId, makePool());

    const e = await refusal(deleteCollection(db, collectionId));
    expect(e.reason).toBe('has_children');
    expect(e.message).toContain('pool of 50');
    expect((await db.collections.get(collectionId))!.deleted).toBeFalsy();
    expect((await db.outbox.toArray()).map((x) => [x.localId, x.op])).toEqual([[poolId, 'create']]);
  });

  it('refuses while a test result of one of its pools is not sent, naming it', async () => {
    const db = makeDb();
    const { collectionId, poolId } = await syncedCollection(db, true);
    await createPoolTest(db, poolId!, {
      method: 1,
      target: 1,
      status: 2,
      test_date: '2026-07-16',
      test_agency: 1,
    });

    const e = await refusal(deleteCollection(db, collectionId));
    expect(e.message).toContain('test of 2026-07-16');
    expect((await db.collections.get(collectionId))!.deleted).toBeFalsy();
    expect(await db.outbox.where('localId').equals(collectionId).count()).toBe(0);
  });

  it('still queues the delete when everything under it is on the server', async () => {
    const db = makeDb();
    const { collectionId } = await syncedCollection(db, true);
    expect(await deleteCollection(db, collectionId)).toBe('queued');
    expect((await db.collections.get(collectionId))!.deleted).toBe(true);
    expect((await db.outbox.toArray()).map((x) => [x.localId, x.op])).toEqual([
      [collectionId, 'delete'],
    ]);
  });
});
