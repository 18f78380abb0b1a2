import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createCollection } from '../../../../src/client/db/create-collection';
import { createPool } from '../../../../src/client/db/create-pool';
import { createPoolTest } from '../../../../src/client/db/create-pool-test';
import { createSite } from '../../../../src/client/db/create-site';
import type { TraplineDb } from '../../../../src/client/db/database';
import { PoolEditScreen } from '../../../../src/client/features/pools/pool-edit-screen';
import { makeCollection, makePool, makeSite } from '../../db/factories';
import { parkRefused, renderScreen, tabletDb } from '../helpers/records';

/** A collection of 90 Cx tarsalis female with two pools of 50: the server refused the second. */
async function refusedPool(db: TraplineDb) {
  const siteId = await createSite(db, makeSite());
  const collectionId = await createCollection(
    db,
    siteId,
    makeCollection({ arthropods: [{ species: 1, sex: 1, num_count: 90 }] }),
  );
  await createPool(db, collectionId, makePool({ num_count: 50 }));
  const poolId = await createPool(db, collectionId, makePool({ num_count: 50 }));
  const parkedEntry = await parkRefused(db, 'pool', poolId, [
    { path: 'num_count', message: 'The pools of Cx tarsalis female hold more than were counted' },
  ]);
  return { collectionId, poolId, parkedEntry };
}

describe('editing a refused pool', () => {
  afterEach(() => vi.restoreAllMocks());

  it('shows the server’s message beside the pool count and sends the fixed pool again', async () => {
    const db = await tabletDb();
    const { collectionId, poolId, parkedEntry } = await refusedPool(db);
    const user = renderScreen(db, <PoolEditScreen localId={poolId} />, `/pools/${poolId}/edit`);

    const count = await screen.findByLabelText('Pool count');
    await waitFor(() =>
      expect(count).toHaveAccessibleDescription(
        'The pools of Cx tarsalis female hold more than were counted',
      ),
    );
    expect(count).toHaveValue('50');

    await user.clear(count);
    await user.type(count, '45');
    await user.click(screen.getByRole('button', { name: 'Save pool' }));
    expect(
      await screen.findByText('Only 90 Cx tarsalis female were counted: these pools would hold 95'),
    ).toBeInTheDocument();

    await user.clear(count);
    await user.type(count, '40');
    await user.click(screen.getByRole('button', { name: 'Save pool' }));
    await waitFor(() => expect(location.pathname).toBe(`/collections/${collectionId}`));
    const pool = (await db.pools.get(poolId))!;
    expect(pool.data.num_count).toBe(40);
    expect(pool.problem).toBeNull();
    const entry = (await db.outbox.where('localId').equals(poolId).first())!;
    expect(entry).toMatchObject({ op: 'create', state: 'pending', frozen: false });
    expect(entry.id).not.toBe(parkedEntry);
    expect(entry.payload.num_count).toBe(40);
  });

  it('removes the pool only after the technician confirms', async () => {
    const db = await tabletDb();
    const { collectionId, poolId } = await refusedPool(db);
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false);
    const user = renderScreen(db, <PoolEditScreen localId={poolId} />, `/pools/${poolId}/edit`);

    await user.click(await screen.findByRole('button', { name: 'Remove pool' }));
    expect(confirm).toHaveBeenCalledTimes(1);
    expect(await db.pools.get(poolId)).toBeDefined();
    expect(location.pathname).toBe(`/pools/${poolId}/edit`);

    confirm.mockReturnValueOnce(true);
    await user.click(screen.getByRole('button', { name: 'Remove pool' }));
    await waitFor(() => expect(location.pathname).toBe(`/collections/${collectionId}`));
    expect(await db.pools.get(poolId)).toBeUndefined();
    expect(await db.outbox.where('localId').equals(poolId).count()).toBe(0);
  });

  it('says which unsent test results stop a pool from being removed', async () => {
    const db = await tabletDb();
    const { poolId } = await refusedPool(db);
    await createPoolTest(db, poolId, {
      method: 1,
      target: 1,
      status: 1,
      test_date: '2026-07-16',
      test_agency: 1,
    });
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    const user = renderScreen(db, <PoolEditScreen localId={poolId} />, `/pools/${poolId}/edit`);
    await user.click(await screen.findByRole('button', { name: 'Remove pool' }));
    expect(await screen.findByText(/Delete these first.*test of 2026-07-16/)).toBeInTheDocument();
    expect(await db.pools.get(poolId)).toBeDefined();
  });
});
