import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createCollection } from '../../../../src/client/db/create-collection';
import { createSite } from '../../../../src/client/db/create-site';
import { MakePoolsScreen } from '../../../../src/client/features/pools/make-pools-screen';
import { makeCollection, makeSite } from '../../db/factories';
import { renderScreen, tabletDb } from '../helpers/records';

describe('make pools', () => {
  it('links a pool’s count error to its field for screen readers', async () => {
    const db = await tabletDb();
    const siteId = await createSite(db, makeSite());
    const collectionId = await createCollection(db, siteId, makeCollection());
    const user = renderScreen(db, <MakePoolsScreen collectionLocalId={collectionId} />);
    const count = await screen.findByLabelText('Pool 1 count');
    await user.clear(count);
    await user.type(count, '60');
    await user.click(screen.getByRole('button', { name: 'Save pools' }));
    await waitFor(() => expect(count).toHaveAccessibleDescription('A pool holds at most 50'));
  });
});
