import { render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SignedInApp } from '../../../src/client/app/signed-in-app';
import { createSite } from '../../../src/client/db/create-site';
import { databaseName, openUserDb } from '../../../src/client/db/database';
import type { SessionInfo } from '../../../src/shared';

/**
 * The tablet offline in the field, one new site saved and not sent; then the app's database is
 * taken from this tab: deleted (site data cleared) or upgraded by a newer app in another tab. The
 * sync bar must not go on saying changes are saved here, nor count what it can no longer see.
 */
const identity: SessionInfo = {
  user: { id: 7, username: `tech-${Math.random().toString(36).slice(2)}`, name: 'Sam' },
  agency: { id: 1, name: 'Demo Vector Control' },
  expiresAt: '2099-01-01T00:00:00.000Z',
};
const owner = { agencyId: 1, username: identity.user.username };

beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    }),
  );
  vi.stubGlobal('navigator', { ...navigator, onLine: false });
  window.history.replaceState(null, '', '/');
});

afterEach(async () => {
  vi.unstubAllGlobals();
  await new Promise<void>((resolve) => {
    const req = indexedDB.deleteDatabase(databaseName(owner));
    req.onsuccess = req.onerror = req.onblocked = () => resolve();
  });
});

async function openOffline() {
  const db = openUserDb(owner);
  await createSite(db, {
    code: '919001',
    name: 'Putah Creek N',
    coordinate_precision: 1,
    shape: { type: 'Point', coordinates: [-121.5, 38.6] },
  } as Parameters<typeof createSite>[1]);
  db.close();
  render(
    <SignedInApp identity={identity} onIdentity={() => undefined} onSignOut={() => undefined} />,
  );
  const bar = await screen.findByRole('region', { name: 'Sync status' }, { timeout: 10_000 });
  await within(bar).findByText('Offline — 1 change saved on this tablet');
  expect(screen.getByTestId('home-pending')).toHaveTextContent('1');
  expect(screen.getByText('Offline: saving on this tablet')).toBeInTheDocument();
  return bar;
}

describe('sync bar once this tab lost its database', () => {
  it('after the data was cleared, never says changes are saved on this tablet', async () => {
    const bar = await openOffline();
    await new Promise<void>((resolve, reject) => {
      const req = indexedDB.deleteDatabase(databaseName(owner));
      req.onsuccess = () => resolve();
      req.onerror = () => reject(req.error);
    });
    await screen.findByText(/not sent yet may be gone/, undefined, { timeout: 5_000 });
    await waitFor(() => expect(within(bar).queryByText(/saved on this tablet/)).toBeNull());
    expect(within(bar).queryByText(/waiting to send/)).not.toBeInTheDocument();
    expect(within(bar).queryByText('1 pending')).not.toBeInTheDocument();
    expect(within(bar).queryByRole('button', { name: 'Sync now' })).toBeNull();
    // Home agrees: nothing is being saved here, and its count of what waits is gone with it.
    await waitFor(() => expect(screen.queryByText(/saving on this tablet/)).toBeNull());
    expect(screen.queryByTestId('home-pending')).toBeNull();
  });

  it('after a newer app took the database in another tab, never says changes are saved here', async () => {
    const bar = await openOffline();
    await new Promise<void>((resolve, reject) => {
      // Dexie's version n is IndexedDB version 10n: a newer app's is higher than this app's.
      const req = indexedDB.open(databaseName(owner), 1000);
      req.onsuccess = () => {
        req.result.close();
        resolve();
      };
      req.onerror = () => reject(req.error);
    });
    await screen.findByText(/updated in another tab/, undefined, { timeout: 5_000 });
    await waitFor(() => expect(within(bar).queryByText(/saved on this tablet/)).toBeNull());
    expect(within(bar).queryByRole('button', { name: 'Sync now' })).toBeNull();
    await waitFor(() => expect(screen.queryByText(/saving on this tablet/)).toBeNull());
  });
});
