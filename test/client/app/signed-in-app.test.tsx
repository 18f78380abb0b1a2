import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SignedInApp } from '../../../src/client/app/signed-in-app';
import { createSite } from '../../../src/client/db/create-site';
import { openUserDb } from '../../../src/client/db/database';
import type { SessionInfo } from '../../../src/shared';
import { LOOKUPS } from '../lookups-fixture';

const identity: SessionInfo = {
  user: { id: 7, username: `tech-${Math.random().toString(36).slice(2)}`, name: 'Sam' },
  agency: { id: 1, name: 'Demo Vector Control' },
  expiresAt: '2099-01-01T00:00:00.000Z',
};

/** Every /api request answers like the BFF whose upstream token has expired. */
const sessionEnded = () =>
  new Response(JSON.stringify({ error: { code: 'reauth_required', message: 'Sign in again' } }), {
    status: 401,
    headers: { 'Content-Type': 'application/json' },
  });

beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => sessionEnded()),
  );
  window.history.replaceState(null, '', '/');
});

afterEach(async () => {
  vi.unstubAllGlobals();
  const db = openUserDb({ agencyId: identity.agency.id, username: identity.user.username });
  await db.delete();
});

async function queueOneSite() {
  const db = openUserDb({ agencyId: identity.agency.id, username: identity.user.username });
  await createSite(db, {
    code: '990001',
    name: 'Later Pond',
    coordinate_precision: 1,
    shape: { type: 'Point', coordinates: [-121.5, 38.6] },
  } as Parameters<typeof createSite>[1]);
  db.close();
}

describe('signed-in app', () => {
  it('lets the technician reopen the sign-in sheet from the sync bar after choosing Later', async () => {
    await queueOneSite();
    render(
      <SignedInApp identity={identity} onIdentity={() => undefined} onSignOut={() => undefined} />,
    );
    const sheet = await screen.findByRole('dialog', { name: 'Sign in again' }, { timeout: 10_000 });
    await userEvent.click(within(sheet).getByRole('button', { name: 'Later' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Sign in again' })).not.toBeInTheDocument(),
    );

    const bar = screen.getByRole('region', { name: 'Sync status' });
    await within(bar).findByText('Sign in again to send 1 change');
    await userEvent.click(within(bar).getByRole('button', { name: 'Sign in' }));
    const reopened = await screen.findByRole('dialog', { name: 'Sign in again' });
    expect(within(reopened).getByLabelText('Password')).toBeInTheDocument();
  });

  it('says the lists were never downloaded, and downloads them on Refresh once connected', async () => {
    let connected = false;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        if (!connected) throw new TypeError('Failed to fetch');
        if (String(input).endsWith('/api/lookups'))
          return new Response(JSON.stringify(LOOKUPS), {
            status: 200,
            headers: { 'Content-Type': 'application/json', ETag: '"v1"' },
          });
        return new Response('{}', { status: 200, headers: { 'Content-Type': 'application/json' } });
      }),
    );
    const ui = (
      <SignedInApp identity={identity} onIdentity={() => undefined} onSignOut={() => undefined} />
    );
    render(ui);
    await screen.findByText('Lists not downloaded yet — connect and tap Refresh.');
    expect(screen.queryByText(/^Lists updated/)).not.toBeInTheDocument();

    connected = true;
    await userEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    await screen.findByText('Lists updated just now');
    expect(
      screen.queryByText('Lists not downloaded yet — connect and tap Refresh.'),
    ).not.toBeInTheDocument();
  });

  it('warns before signing out while changes still wait to be sent, and says they stay on the tablet', async () => {
    await queueOneSite();
    const onSignOut = vi.fn();
    window.history.replaceState(null, '', '/settings');
    render(<SignedInApp identity={identity} onIdentity={() => undefined} onSignOut={onSignOut} />);
    // The session has ended too: put the sign-in sheet off to reach Sign out.
    const sheet = await screen.findByRole('dialog', { name: 'Sign in again' });
    await userEvent.click(within(sheet).getByRole('button', { name: 'Later' }));

    await userEvent.click(await screen.findByRole('button', { name: 'Sign out' }));
    const ask = await screen.findByRole('dialog', { name: 'Sign out with unsent changes?' });
    expect(ask).toHaveTextContent('1 change has not been sent yet');
    expect(ask).toHaveTextContent(`stays on this tablet`);
    expect(onSignOut).not.toHaveBeenCalled();

    await userEvent.click(within(ask).getByRole('button', { name: 'Stay signed in' }));
    expect(onSignOut).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    await userEvent.click(
      within(
        await screen.findByRole('dialog', { name: 'Sign out with unsent changes?' }),
      ).getByRole('button', { name: 'Sign out anyway' }),
    );
    expect(onSignOut).toHaveBeenCalledTimes(1);
  });

  it('signs out at once when nothing waits to be sent', async () => {
    const onSignOut = vi.fn();
    window.history.replaceState(null, '', '/settings');
    render(<SignedInApp identity={identity} onIdentity={() => undefined} onSignOut={onSignOut} />);
    const sheet = await screen.findByRole('dialog', { name: 'Sign in again' });
    await userEvent.click(within(sheet).getByRole('button', { name: 'Later' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Sign out' }));
    expect(onSignOut).toHaveBeenCalledTimes(1);
  });

  it('asks to sign in again to keep syncing, without counting "0 changes", when nothing waits', async () => {
    render(
      <SignedInApp identity={identity} onIdentity={() => undefined} onSignOut={() => undefined} />,
    );
    const sheet = await screen.findByRole('dialog', { name: 'Sign in again' });
    await userEvent.click(within(sheet).getByRole('button', { name: 'Later' }));
    const bar = screen.getByRole('region', { name: 'Sync status' });
    await within(bar).findByText('Sign in again to keep syncing');
    expect(within(bar).queryByText(/0 changes/)).not.toBeInTheDocument();
    expect(within(bar).getByRole('button', { name: 'Sign in' })).toBeInTheDocument();
  });
});
