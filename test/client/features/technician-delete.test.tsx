import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SessionInfo } from '../../../src/shared/schemas/auth';
import { createCollection } from '../../../src/client/db/create-collection';
import { createPool } from '../../../src/client/db/create-pool';
import type { TraplineDb } from '../../../src/client/db/database';
import { deleteCollection } from '../../../src/client/db/delete-collection';
import { deletePool } from '../../../src/client/db/delete-pool';
import { RepositoryError } from '../../../src/client/db/repository-error';
import { CollectionDetailScreen } from '../../../src/client/features/collections/collection-detail-screen';
import { PoolEditScreen } from '../../../src/client/features/pools/pool-edit-screen';
import { signedInHere } from '../../../src/client/lib/identity';
import { storePulledRows } from '../../../src/client/sync/store-pulled-rows';
import { makeCollection, makePool } from '../db/factories';
import { renderScreen, tabletDb } from './helpers/records';

const ONLY_MANAGER = 'Only a manager can delete a record that is on the server.';

function identity(username: string, role?: 'manager' | 'technician'): SessionInfo {
  return {
    user: {
      id: username === 'demo-tech' ? 2 : 1,
      username,
      name: username,
      ...(role ? { role } : {}),
    },
    agency: { id: 1, name: 'Demo Mosquito District' },
    expiresAt: '2099-01-01T00:00:00.000Z',
  };
}

let signOut: (() => void) | null = null;
function signIn(username: string, role?: 'manager' | 'technician') {
  signOut = signedInHere(identity(username, role));
}

/**
 * Look-alikes: two collections at Putah Creek N on the night of July 14, same trap, same counts.
 * One is on the server (pulled, with a pool), the other only on this tablet (with a pool).
 */
async function lookAlikes(db: TraplineDb) {
  const night = '2026-07-14T13:30:00.000Z';
  await storePulledRows(db, Date.now(), 'site', [
    { id: 7, code: '104233', name: 'Putah Creek N', agency: 1 },
  ]);
  await storePulledRows(db, Date.now(), 'collection', [
    {
      id: 9,
      collection_date: night,
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
  const siteId = (await db.sites.where('serverId').equals(7).first())!.localId;
  const synced = (await db.collections.where('serverId').equals(9).first())!.localId;
  const syncedPool = (await db.pools.where('serverId').equals(30).first())!.localId;
  const unsent = await createCollection(
    db,
    siteId,
    makeCollection({
      collection_date: night,
      arthropods: [{ species: 1, sex: 1, num_count: 120 }],
    }),
  );
  const unsentPool = await createPool(db, unsent, makePool({ num_count: 50 }));
  return { synced, syncedPool, unsent, unsentPool };
}

describe('deleting as a technician (only managers delete, contract §7)', () => {
  afterEach(() => {
    signOut?.();
    signOut = null;
    vi.restoreAllMocks();
  });

  it('offers no delete of the synced look-alike collection, saying why, and still of the unsent one', async () => {
    signIn('demo-tech', 'technician');
    const db = await tabletDb();
    const { synced, unsent } = await lookAlikes(db);

    renderScreen(db, <CollectionDetailScreen localId={synced} />, `/collections/${synced}`);
    expect(await screen.findByText(ONLY_MANAGER)).toBeVisible();
    expect(screen.getByText(/ask a manager of Demo Mosquito District/)).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Delete collection' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Edit collection' })).toBeInTheDocument();

    // Its look-alike that never left the tablet: discarding it is anyone's.
    renderScreen(db, <CollectionDetailScreen localId={unsent} />, `/collections/${unsent}`);
    expect(await screen.findByRole('button', { name: 'Delete collection' })).toBeInTheDocument();
    expect(screen.getAllByText(ONLY_MANAGER)).toHaveLength(1);
  });

  it('deletes the unsent look-alike collection as before (a local discard)', async () => {
    signIn('demo-tech', 'technician');
    const db = await tabletDb();
    const { unsent, unsentPool } = await lookAlikes(db);
    expect(await deletePool(db, unsentPool)).toBe('removed');
    const confirm = vi.spyOn(window, 'confirm');
    const user = renderScreen(
      db,
      <CollectionDetailScreen localId={unsent} />,
      `/collections/${unsent}`,
    );
    await user.click(await screen.findByRole('button', { name: 'Delete collection' }));
    // The app's own sheet asks, not the browser's confirm().
    const sheet = await screen.findByRole('dialog', { name: 'Delete this collection?' });
    await user.click(within(sheet).getByRole('button', { name: 'Delete collection' }));
    expect(confirm).not.toHaveBeenCalled();
    expect(screen.queryByText(ONLY_MANAGER)).not.toBeInTheDocument();
    await waitFor(async () => expect(await db.collections.get(unsent)).toBeUndefined());
    expect(await db.outbox.where('localId').equals(unsent).count()).toBe(0);
  });

  it('offers no removal of a synced pool, saying why, and still of an unsent one', async () => {
    signIn('demo-tech', 'technician');
    const db = await tabletDb();
    const { syncedPool, unsentPool } = await lookAlikes(db);

    renderScreen(db, <PoolEditScreen localId={syncedPool} />, `/pools/${syncedPool}/edit`);
    expect(await screen.findByText(ONLY_MANAGER)).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Remove pool' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save pool' })).toBeInTheDocument();

    renderScreen(db, <PoolEditScreen localId={unsentPool} />, `/pools/${unsentPool}/edit`);
    expect(await screen.findByRole('button', { name: 'Remove pool' })).toBeInTheDocument();
    expect(screen.getAllByText(ONLY_MANAGER)).toHaveLength(1);
  });

  it('offers removal of an unsent pool', async () => {
    signIn('demo-tech', 'technician');
    const db = await tabletDb();
    const { unsentPool } = await lookAlikes(db);
    renderScreen(db, <PoolEditScreen localId={unsentPool} />, `/pools/${unsentPool}/edit`);
    expect(await screen.findByRole('button', { name: 'Remove pool' })).toBeInTheDocument();
    expect(screen.queryByText(ONLY_MANAGER)).not.toBeInTheDocument();
  });

  it('refuses in the repository to queue a technician’s delete of a synced record', async () => {
    signIn('demo-tech', 'technician');
    const db = await tabletDb();
    const { synced, syncedPool, unsentPool } = await lookAlikes(db);

    await expect(deletePool(db, syncedPool)).rejects.toThrow(RepositoryError);
    await expect(deletePool(db, syncedPool)).rejects.toThrow(ONLY_MANAGER);
    expect(await deletePool(db, unsentPool)).toBe('removed');
    await expect(deleteCollection(db, synced)).rejects.toThrow(ONLY_MANAGER);
    expect((await db.outbox.toArray()).filter((e) => e.op === 'delete')).toEqual([]);
    expect((await db.collections.get(synced))!.deleted).toBeFalsy();
    expect((await db.pools.get(syncedPool))!.deleted).toBeFalsy();
  });

  it('as demo-manager offers the delete of both look-alikes and queues the synced one', async () => {
    signIn('demo-manager', 'manager');
    const db = await tabletDb();
    const { synced, unsent, syncedPool } = await lookAlikes(db);

    renderScreen(db, <CollectionDetailScreen localId={synced} />, `/collections/${synced}`);
    expect(await screen.findByRole('button', { name: 'Delete collection' })).toBeInTheDocument();
    expect(screen.queryByText(ONLY_MANAGER)).not.toBeInTheDocument();
    renderScreen(db, <CollectionDetailScreen localId={unsent} />, `/collections/${unsent}`);
    await waitFor(() =>
      expect(screen.getAllByRole('button', { name: 'Delete collection' })).toHaveLength(2),
    );

    expect(await deletePool(db, syncedPool)).toBe('queued');
  });

  it('keeps today’s behaviour when the identity does not say the role', async () => {
    signIn('demo-tech');
    const db = await tabletDb();
    const { synced } = await lookAlikes(db);
    renderScreen(db, <CollectionDetailScreen localId={synced} />, `/collections/${synced}`);
    expect(await screen.findByRole('button', { name: 'Delete collection' })).toBeInTheDocument();
  });
});
