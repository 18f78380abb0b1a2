import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createCollection } from '../../../../src/client/db/create-collection';
import { createPoolTest } from '../../../../src/client/db/create-pool-test';
import { createPools } from '../../../../src/client/db/create-pools';
import { createSite } from '../../../../src/client/db/create-site';
import { updateRecord } from '../../../../src/client/db/update-record';
import { CollectionDetailScreen } from '../../../../src/client/features/collections/collection-detail-screen';
import { makeCollection, makeSite } from '../../db/factories';
import { renderScreen, tabletDb } from '../helpers/records';

/** The pools as listed: each one's position and whether it shows the positive result. */
async function listed() {
  const pools = await screen.findByRole('list', { name: 'Pools' });
  return within(pools)
    .getAllByRole('listitem')
    .filter((li) => li.parentElement === pools)
    .map((li) => (li.textContent?.includes('Confirmed') ? 'positive' : 'no result'));
}

describe('three equal pools of one collection', () => {
  it('keep their places when one is edited, so "Pool 2" stays the pool that tested positive', async () => {
    const db = await tabletDb();
    const siteId = await createSite(db, makeSite());
    const collectionId = await createCollection(
      db,
      siteId,
      makeCollection({ arthropods: [{ species: 1, sex: 1, num_count: 150 }] }),
    );
    const pool = { species: 1, sex: 1, num_count: 50 };
    await createPools(db, collectionId, [pool, pool, pool]);
    renderScreen(db, <CollectionDetailScreen localId={collectionId} />);
    // The lab's positive result goes on whichever pool is listed second.
    await screen.findByRole('list', { name: 'Pools' });
    const secondListed = screen.getByRole('link', { name: 'Edit pool 2' }).getAttribute('href')!;
    const secondId = secondListed.split('/')[2];
    await createPoolTest(db, secondId, {
      method: 1,
      target: 1,
      status: 1,
      test_date: '2026-07-16',
      test_agency: 1,
    });
    await waitFor(async () =>
      expect(await listed()).toEqual(['no result', 'positive', 'no result']),
    );

    // A comment on the first pool listed.
    const firstId = screen
      .getByRole('link', { name: 'Edit pool 1' })
      .getAttribute('href')!
      .split('/')[2];
    await updateRecord(db, 'pool', firstId, { ...pool, comments: 'tube cracked, re-sealed' });

    // Let the screen's live query show the edit.
    await new Promise((r) => setTimeout(r, 200));
    expect(await listed()).toEqual(['no result', 'positive', 'no result']);
    expect(screen.getByRole('link', { name: 'Edit pool 1' })).toHaveAttribute(
      'href',
      `/pools/${firstId}/edit`,
    );
    expect(screen.getByRole('link', { name: 'Edit pool 2' })).toHaveAttribute('href', secondListed);
  });
});
