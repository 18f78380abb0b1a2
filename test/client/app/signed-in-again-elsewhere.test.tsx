import { render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SignedInApp } from '../../../src/client/app/signed-in-app';
import { openUserDb } from '../../../src/client/db/database';
import { createSyncEngine } from '../../../src/client/sync';
import type { SessionInfo } from '../../../src/shared';

/**
 * Two tabs of one technician: the session ends, both are asked for the password; the technician
 * signs in again in the other tab. This tab then syncs again, and must stop asking.
 */
const identity: SessionInfo = {
  user: { id: 7, username: `tech-${Math.random().toString(36).slice(2)}`, name: 'Sam' },
  agency: { id: 1, name: 'Demo Vector Control' },
  expiresAt: '2099-01-01T00:00:00.000Z',
};
const owner = { agencyId: identity.agency.id, username: identity.user.username };

let sessionGood = false;
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

beforeEach(() => {
  sessionGood = false;
  vi.stubGlobal(
    'fetch',
    vi.fn(async () =>
      sessionGood
        ? json(503, { error: { code: 'upstream_unavailable', message: 'Try later' } })
        : json(401, { error: { code: 'reauth_required', message: 'Sign in again' } }),
    ),
  );
  window.history.replaceState(null, '', '/');
});

afterEach(async () => {
  vi.unstubAllGlobals();
  localStorage.clear();
  await openUserDb(owner).delete();
});

describe('signed in again in another tab', () => {
  it('closes this tab’s sign-in sheet and its "Sign in again" bar once the other tab signed in', async () => {
    render(
      <SignedInApp identity={identity} onIdentity={() => undefined} onSignOut={() => undefined} />,
    );
    await screen.findByRole('dialog', { name: 'Sign in again' }, { timeout: 10_000 });
    const bar = screen.getByRole('region', { name: 'Sync status' });
    await within(bar).findByText('Sign in again to keep syncing');

    // The other tab: its sign-in sheet succeeded (the cookie is the browser's, shared by the
    // tabs); it remembers the identity and resumes its engine, which tells this tab's.
    sessionGood = true;
    const otherDb = openUserDb(owner);
    const other = createSyncEngine(otherDb, { owner, autoPull: false });
    const renewed = { ...identity, expiresAt: '2099-01-02T00:00:00.000Z' };
    localStorage.setItem('trapline.identity', JSON.stringify(renewed));
    window.dispatchEvent(
      new StorageEvent('storage', {
        key: 'trapline.identity',
        newValue: JSON.stringify(renewed),
        storageArea: localStorage,
      }),
    );
    other.start();
    other.resume();

    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Sign in again' })).not.toBeInTheDocument(),
    );
    await waitFor(() => expect(within(bar).queryByText(/Sign in again/)).not.toBeInTheDocument());
    expect(within(bar).queryByRole('button', { name: 'Sign in' })).not.toBeInTheDocument();
    expect(within(bar).getByRole('button', { name: 'Sync now' })).toBeEnabled();
    other.stop();
    otherDb.close();
  });

  it('keeps asking when someone else signed in in the other tab', async () => {
    render(
      <SignedInApp identity={identity} onIdentity={() => undefined} onSignOut={() => undefined} />,
    );
    await screen.findByRole('dialog', { name: 'Sign in again' }, { timeout: 10_000 });
    const someoneElse = {
      ...identity,
      user: { ...identity.user, id: 8, username: `${identity.user.username}-2` },
    };
    window.dispatchEvent(
      new StorageEvent('storage', {
        key: 'trapline.identity',
        newValue: JSON.stringify(someoneElse),
        storageArea: localStorage,
      }),
    );
    await new Promise((r) => setTimeout(r, 200));
    expect(screen.getByRole('dialog', { name: 'Sign in again' })).toBeInTheDocument();
    const bar = screen.getByRole('region', { name: 'Sync status' });
    expect(within(bar).getByText('Sign in again to keep syncing')).toBeInTheDocument();
  });
});
