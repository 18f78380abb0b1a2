import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createCollection } from '../../../../src/client/db/create-collection';
import { createSite } from '../../../../src/client/db/create-site';
import { CollectionFormScreen } from '../../../../src/client/features/collections/collection-form-screen';
import { makeCollection, makeDb, makeSite } from '../../db/factories';
import { LOOKUPS } from '../../lookups-fixture';
import { renderScreen, tabletDb } from '../helpers/records';

describe('an edit form whose record is read before the lists', () => {
  it('shows the saved trap and species once the lists are read, not "Choose…"', async () => {
    const db = await tabletDb();
    const siteId = await createSite(db, makeSite());
    const localId = await createCollection(
      db,
      siteId,
      makeCollection({ trap: 2, arthropods: [{ species: 3, sex: 1, num_count: 12 }] }),
    );
    // The lists are one large document: reading it can finish after the record's own reads.
    const get = db.lookups.get.bind(db.lookups);
    db.lookups.get = ((key: 'lookups') =>
      new Promise((resolve) => setTimeout(resolve, 150)).then(() =>
        get(key),
      )) as typeof db.lookups.get;

    renderScreen(db, <CollectionFormScreen localId={localId} />, `/collections/${localId}/edit`);
    await screen.findByRole('button', { name: 'Save collection' });
    await waitFor(() =>
      expect(screen.getByLabelText('Trap type').querySelectorAll('option').length).toBeGreaterThan(
        1,
      ),
    );
    expect(screen.getByLabelText('Trap type')).toHaveValue('2');
    expect(screen.getByLabelText('Species (row 1)')).toHaveValue('3');
  });

  it('shows them once lists that were never downloaded arrive while the form is open', async () => {
    const db = makeDb();
    const siteId = await createSite(db, makeSite());
    const localId = await createCollection(
      db,
      siteId,
      makeCollection({ trap: 2, arthropods: [{ species: 3, sex: 1, num_count: 12 }] }),
    );
    renderScreen(db, <CollectionFormScreen localId={localId} />, `/collections/${localId}/edit`);
    await screen.findByText(/Lists not downloaded yet/);

    // The tablet comes online: the lists are downloaded and stored.
    await db.lookups.put({ key: 'lookups', etag: null, document: LOOKUPS, storedAt: Date.now() });
    await waitFor(() =>
      expect(screen.queryByText(/Lists not downloaded yet/)).not.toBeInTheDocument(),
    );
    expect(screen.getByLabelText('Trap type')).toHaveValue('2');
    expect(screen.getByLabelText('Species (row 1)')).toHaveValue('3');
    expect(screen.getByLabelText('Count (row 1)')).toHaveValue('12');
  });
});
