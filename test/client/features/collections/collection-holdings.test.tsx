import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { createCollection } from '../../../../src/client/db/create-collection';
import { createPool } from '../../../../src/client/db/create-pool';
import { createPoolTest } from '../../../../src/client/db/create-pool-test';
import { createSite } from '../../../../src/client/db/create-site';
import type { TraplineDb } from '../../../../src/client/db/database';
import { CollectionFormScreen } from '../../../../src/client/features/collections/collection-form-screen';
import { makeCollection, makePool, makeSite } from '../../db/factories';
import { renderScreen, tabletDb } from '../helpers/records';

/** 120 Cx tarsalis female (date only, Jul 14) with pools of 50 and 30, one tested on Jul 16. */
async function pooledCollection(db: TraplineDb) {
  const siteId = await createSite(db, makeSite());
  const collectionId = await createCollection(
    db,
    siteId,
    makeCollection({ collection_date: '2026-07-14', collection_date_date_only: true }),
  );
  const poolId = await createPool(db, collectionId, makePool({ num_count: 50 }));
  await createPool(db, collectionId, makePool({ num_count: 30 }));
  await createPoolTest(db, poolId, {
    method: 1,
    target: 1,
    status: 2,
    test_date: '2026-07-16',
    test_agency: 1,
  });
  return collectionId;
}

function openEdit(db: TraplineDb, collectionId: string) {
  const onSaved = vi.fn();
  const user = renderScreen(
    db,
    <CollectionFormScreen localId={collectionId} onSaved={onSaved} />,
    `/collections/${collectionId}/edit`,
  );
  return { user, onSaved };
}

describe('editing a collection that has pools and tests, offline', () => {
  it('refuses a count lower than its pools hold, beside the count', async () => {
    const db = await tabletDb();
    const collectionId = await pooledCollection(db);
    const { user, onSaved } = openEdit(db, collectionId);
    const count = await screen.findByLabelText('Count (row 1)');
    await user.clear(count);
    await user.type(count, '70');
    await user.click(screen.getByRole('button', { name: 'Save collection' }));
    const message = '80 Cx tarsalis female are already in pools: the count cannot be lower than 80';
    await waitFor(() => expect(count).toHaveAccessibleDescription(message));
    expect(onSaved).not.toHaveBeenCalled();
    expect((await db.collections.get(collectionId))!.data.arthropods).toEqual([
      { species: 1, sex: 1, num_count: 120 },
    ]);

    await user.clear(count);
    await user.type(count, '80');
    await user.click(screen.getByRole('button', { name: 'Save collection' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1));
    expect((await db.collections.get(collectionId))!.data.arthropods).toEqual([
      { species: 1, sex: 1, num_count: 80 },
    ]);
  });

  it('refuses removing the row of a pooled species', async () => {
    const db = await tabletDb();
    const collectionId = await pooledCollection(db);
    const { user, onSaved } = openEdit(db, collectionId);
    await user.click(await screen.findByRole('button', { name: 'Remove row 1' }));
    await user.click(screen.getByRole('button', { name: 'Save collection' }));
    expect(
      await screen.findByText(/80 Cx tarsalis female are already in pools: keep their row/),
    ).toBeInTheDocument();
    expect(onSaved).not.toHaveBeenCalled();
  });

  it('refuses a collection date after a test of its pools, beside the date', async () => {
    const db = await tabletDb();
    const collectionId = await pooledCollection(db);
    const { user, onSaved } = openEdit(db, collectionId);
    const date = await screen.findByLabelText('Collection date');
    expect(date).toHaveValue('2026-07-14');
    await user.clear(date);
    await user.type(date, '2026-07-17');
    await user.click(screen.getByRole('button', { name: 'Save collection' }));
    await waitFor(() =>
      expect(date).toHaveAccessibleDescription(
        'A pool of this collection was tested on Jul 16, 2026: the collection date cannot be after that',
      ),
    );
    expect(onSaved).not.toHaveBeenCalled();

    await user.clear(date);
    await user.type(date, '2026-07-16');
    await user.click(screen.getByRole('button', { name: 'Save collection' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1));
  });

  it('offers to move it to another site, with no advice to delete it and enter it again', async () => {
    const db = await tabletDb();
    const collectionId = await pooledCollection(db);
    openEdit(db, collectionId);
    expect(await screen.findByTestId('chosen-site')).toHaveTextContent('104233 Putah Creek N');
    expect(screen.getByRole('button', { name: 'Change site' })).toBeInTheDocument();
    expect(screen.queryByText(/delete it and enter it again/)).not.toBeInTheDocument();
  });
});
