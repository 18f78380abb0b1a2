import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { deleteCollection } from '../../../../src/client/db/delete-collection';
import { CollectionDetailScreen } from '../../../../src/client/features/collections/collection-detail-screen';
import { storePulledRows } from '../../../../src/client/sync/store-pulled-rows';
import { renderScreen, tabletDb } from '../helpers/records';

describe('a collection deleted offline, its deletion not sent yet', () => {
  it('shows its pools without offering to edit them or add test results to them', async () => {
    // On the server: a collection with a pool (it retires the pool with the collection).
    const db = await tabletDb();
    await storePulledRows(db, Date.now(), 'site', [
      { id: 7, code: '104233', name: 'Putah Creek N', agency: 1 },
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
      },
    ]);
    await storePulledRows(db, Date.now(), 'pool', [
      { id: 30, collection: 9, species: 1, sex: 1, num_count: 50, agency: 1 },
    ]);
    const collectionId = (await db.collections.where('serverId').equals(9).first())!.localId;
    expect(await deleteCollection(db, collectionId)).toBe('queued');

    renderScreen(db, <CollectionDetailScreen localId={collectionId} />);
    expect(await screen.findByText(/Deleted: the deletion is waiting to be sent/)).toBeVisible();
    expect(await screen.findByRole('list', { name: 'Pools' })).toHaveTextContent('× 50');
    // Anything added under it now would be refused by the server once the deletion is sent.
    expect(screen.queryByRole('link', { name: 'Add test result' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Edit pool 1' })).not.toBeInTheDocument();
  });
});
