import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createCollection } from '../../../../src/client/db/create-collection';
import { createPool } from '../../../../src/client/db/create-pool';
import { createSite } from '../../../../src/client/db/create-site';
import { CollectionFormScreen } from '../../../../src/client/features/collections/collection-form-screen';
import { PoolTestScreen } from '../../../../src/client/features/pool-tests/pool-test-screen';
import { SiteFormScreen } from '../../../../src/client/features/sites/site-form-screen';
import { makeCollection, makeDb, makePool, makeSite } from '../../db/factories';
import { renderScreen, tabletDb } from '../helpers/records';

/**
 * A tablet whose first sign-in could not download the lists (species, traps, lures…): every form
 * says why its drop-downs are empty and where to get them, instead of leaving empty choices.
 */
const NOTICE = /Lists not downloaded yet — connect, then tap Refresh on Home/;

describe('forms on a tablet without the lists', () => {
  it('new site, new collection and pool test say the lists are missing', async () => {
    const db = makeDb();
    const site = await createSite(db, makeSite());
    const collection = await createCollection(db, site, makeCollection());
    const pool = await createPool(db, collection, makePool());

    renderScreen(db, <SiteFormScreen />, '/sites/new');
    expect(await screen.findByText(NOTICE)).toBeInTheDocument();
    document.body.innerHTML = '';
    renderScreen(db, <CollectionFormScreen />, '/collections/new');
    expect(await screen.findByText(NOTICE)).toBeInTheDocument();
    document.body.innerHTML = '';
    renderScreen(db, <PoolTestScreen poolLocalId={pool} ownAgencyId={1} />, '/');
    expect(await screen.findByText(NOTICE)).toBeInTheDocument();
  });

  it('say nothing once the lists are stored', async () => {
    const db = await tabletDb();
    renderScreen(db, <SiteFormScreen />, '/sites/new');
    await screen.findByRole('heading', { name: 'New site' });
    expect(screen.queryByText(/Lists not downloaded/)).not.toBeInTheDocument();
  });
});
