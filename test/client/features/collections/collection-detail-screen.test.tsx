// West of UTC: the server's UTC midnight of a date-only collection must not show a day early.
process.env.TZ = 'America/Los_Angeles';

import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createCollection } from '../../../../src/client/db/create-collection';
import { createPool } from '../../../../src/client/db/create-pool';
import { createPoolTest } from '../../../../src/client/db/create-pool-test';
import { createSite } from '../../../../src/client/db/create-site';
import { CollectionDetailScreen } from '../../../../src/client/features/collections/collection-detail-screen';
import { makeCollection, makePool, makeSite } from '../../db/factories';
import { renderScreen, tabletDb } from '../helpers/records';

describe('collection detail', () => {
  it('heads a date-only collection from the server with the day it was written', async () => {
    const db = await tabletDb();
    const siteId = await createSite(db, makeSite());
    const collectionId = await createCollection(db, siteId, makeCollection());
    // As pulled from the server: date-only collections come back as UTC midnight.
    await db.collections.update(collectionId, {
      collectionDate: '2026-07-14T00:00:00.000Z',
      data: makeCollection({
        collection_date: '2026-07-14T00:00:00.000Z',
        collection_date_date_only: true,
      }),
    });
    renderScreen(db, <CollectionDetailScreen localId={collectionId} />);
    expect(
      await screen.findByRole('heading', { name: 'Collection not yet numbered · Jul 14, 2026' }),
    ).toBeInTheDocument();
  });

  it('offers to edit each pool and each test result', async () => {
    const db = await tabletDb();
    const siteId = await createSite(db, makeSite());
    const collectionId = await createCollection(db, siteId, makeCollection());
    const poolId = await createPool(db, collectionId, makePool());
    const testId = await createPoolTest(db, poolId, {
      method: 1,
      target: 1,
      status: 2,
      test_date: '2026-07-16',
      test_agency: 1,
    });
    renderScreen(db, <CollectionDetailScreen localId={collectionId} />);
    expect(await screen.findByRole('link', { name: 'Edit pool 1' })).toHaveAttribute(
      'href',
      `/pools/${poolId}/edit`,
    );
    expect(screen.getByRole('link', { name: 'Edit test result 1 of pool 1' })).toHaveAttribute(
      'href',
      `/pool-tests/${testId}/edit`,
    );
  });
});
