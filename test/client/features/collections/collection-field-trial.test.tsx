import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createCollection } from '../../../../src/client/db/create-collection';
import { createSite } from '../../../../src/client/db/create-site';
import type { TraplineDb } from '../../../../src/client/db/database';
import { CollectionDetailScreen } from '../../../../src/client/features/collections/collection-detail-screen';
import { CollectionFormScreen } from '../../../../src/client/features/collections/collection-form-screen';
import { signedInHere } from '../../../../src/client/lib/identity';
import { storePulledRows } from '../../../../src/client/sync/store-pulled-rows';
import { makeCollection, makeSite } from '../../db/factories';
import { renderScreen, tabletDb } from '../helpers/records';

// The collection screens as the field trial found them (issue 35, minor items and item 3).

let signOut: (() => void) | null = null;
function signInAsTechnician() {
  signOut = signedInHere({
    user: { id: 2, username: 'demo-tech', name: 'Demo Tech', role: 'technician' },
    agency: { id: 1, name: 'Demo Vector Control District' },
    expiresAt: '2099-01-01T00:00:00.000Z',
  });
}

afterEach(() => {
  signOut?.();
  signOut = null;
  vi.restoreAllMocks();
});

async function collectionAtSite(db: TraplineDb, over: Parameters<typeof makeCollection>[0] = {}) {
  const siteId = await createSite(db, makeSite());
  return createCollection(db, siteId, makeCollection(over));
}

/** A collection pulled from the server, entered there by the user with id `author`. */
async function pulledCollection(db: TraplineDb, author: number) {
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
      user: author,
      arthropods: [{ id: 5, species: 1, sex: 1, num_count: 120 }],
    },
  ]);
  return (await db.collections.where('serverId').equals(9).first())!.localId;
}

describe('the collection page', () => {
  it('shows the lures the trap was baited with', async () => {
    const db = await tabletDb();
    const id = await collectionAtSite(db, { lures: [1] });
    renderScreen(db, <CollectionDetailScreen localId={id} />, `/collections/${id}`);
    const lures = await screen.findByText('Lures');
    await waitFor(() => expect(lures.nextElementSibling).toHaveTextContent('CO2 (Dry ice)'));
  });

  it('offers no Make pools for an empty trap, and says why', async () => {
    const db = await tabletDb();
    const empty = await collectionAtSite(db, { arthropods: [] });
    renderScreen(db, <CollectionDetailScreen localId={empty} />, `/collections/${empty}`);
    expect(await screen.findByText(/Nothing to pool: no mosquitoes were counted/)).toBeVisible();
    expect(screen.queryByRole('link', { name: 'Make pools' })).not.toBeInTheDocument();

    const counted = await collectionAtSite(db);
    renderScreen(db, <CollectionDetailScreen localId={counted} />, `/collections/${counted}`);
    expect(await screen.findByRole('link', { name: 'Make pools' })).toBeInTheDocument();
  });

  it('asks in the app’s sheet before deleting an unsent collection; Keep it keeps it', async () => {
    const db = await tabletDb();
    const id = await collectionAtSite(db);
    const confirm = vi.spyOn(window, 'confirm');
    const user = renderScreen(db, <CollectionDetailScreen localId={id} />, `/collections/${id}`);
    await user.click(await screen.findByRole('button', { name: 'Delete collection' }));
    const sheet = await screen.findByRole('dialog', { name: 'Delete this collection?' });
    expect(within(sheet).getByRole('button', { name: 'Keep it' })).toHaveFocus();
    await user.click(within(sheet).getByRole('button', { name: 'Keep it' }));
    expect(confirm).not.toHaveBeenCalled();
    expect(await db.collections.get(id)).toBeDefined();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('offers a technician no delete of a collection the tablet has tried to send, and says whom to ask', async () => {
    signInAsTechnician();
    const db = await tabletDb();
    const id = await collectionAtSite(db);
    renderScreen(db, <CollectionDetailScreen localId={id} />, `/collections/${id}`);
    expect(await screen.findByRole('button', { name: 'Delete collection' })).toBeInTheDocument();
    // Sent once with no answer (offline): it may be on the server, where only managers delete.
    const entry = (await db.outbox.where('localId').equals(id).first())!;
    await db.outbox.update(entry.id, { frozen: true });
    expect(await screen.findByText(/ask a manager of Demo Vector Control District/)).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Delete collection' })).not.toBeInTheDocument();
  });

  it('tells a technician whom to ask for the deletion of a synced collection', async () => {
    signInAsTechnician();
    const db = await tabletDb();
    const id = await pulledCollection(db, 2);
    renderScreen(db, <CollectionDetailScreen localId={id} />, `/collections/${id}`);
    expect(
      await screen.findByText(
        /To have it deleted, ask a manager of Demo Vector Control District\./,
      ),
    ).toBeVisible();
    expect(screen.getByText(/Entered at the wrong site\? Edit the collection/)).toBeVisible();
  });
});

describe('editing a synced collection as a technician', () => {
  it('lets its author change the site', async () => {
    signInAsTechnician();
    const db = await tabletDb();
    const id = await pulledCollection(db, 2);
    renderScreen(db, <CollectionFormScreen localId={id} />, `/collections/${id}/edit`);
    expect(await screen.findByTestId('chosen-site')).toHaveTextContent('104233 Putah Creek N');
    expect(screen.getByRole('button', { name: 'Change site' })).toBeInTheDocument();
  });

  it('shows the site read-only, saying who may move it, in a collection someone else entered', async () => {
    signInAsTechnician();
    const db = await tabletDb();
    const id = await pulledCollection(db, 1);
    renderScreen(db, <CollectionFormScreen localId={id} />, `/collections/${id}/edit`);
    expect(await screen.findByTestId('chosen-site')).toHaveTextContent('104233 Putah Creek N');
    expect(screen.queryByRole('button', { name: 'Change site' })).not.toBeInTheDocument();
    expect(
      screen.getByText(
        'Only a manager or the person who entered this collection can move it to another site.',
      ),
    ).toBeVisible();
  });
});

describe('the New collection total', () => {
  it('adds up only counts that can be saved, and names the rows left out', async () => {
    const db = await tabletDb();
    const siteId = await createSite(db, makeSite());
    const user = renderScreen(db, <CollectionFormScreen />, `/collections/new?site=${siteId}`);
    await user.click(await screen.findByRole('button', { name: 'Add row' }));
    await user.type(screen.getByLabelText('Count (row 1)'), '12');
    await user.click(screen.getByRole('button', { name: 'Add row' }));
    await user.type(screen.getByLabelText('Count (row 2)'), '-7');
    await waitFor(() => expect(screen.getByTestId('abundance-total')).toHaveTextContent('12'));
    expect(screen.getByText(/not counting row 2/)).toBeVisible();
    await user.clear(screen.getByLabelText('Count (row 2)'));
    await user.type(screen.getByLabelText('Count (row 2)'), '3');
    await waitFor(() => expect(screen.getByTestId('abundance-total')).toHaveTextContent('15'));
    expect(screen.queryByText(/not counting/)).not.toBeInTheDocument();
  });
});
