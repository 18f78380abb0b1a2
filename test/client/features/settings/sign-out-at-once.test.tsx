import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SignedInApp } from '../../../../src/client/app/signed-in-app';
import { createSite } from '../../../../src/client/db/create-site';
import { openUserDb } from '../../../../src/client/db/database';
import type { SessionInfo } from '../../../../src/shared';

/**
 * Sign out tapped the moment Settings opens, with a change still waiting: the count of unsent
 * changes is read from the tablet's database, which takes a moment. The warning must not depend
 * on that moment. The tablet is offline (every request fails as with no network).
 */
const identity: SessionInfo = {
  user: { id: 7, username: `tech-${Math.random().toString(36).slice(2)}`, name: 'Sam' },
  agency: { id: 1, name: 'Demo Vector Control' },
  expiresAt: '2099-01-01T00:00:00.000Z',
};

afterEach(async () => {
  vi.unstubAllGlobals();
  await openUserDb({ agencyId: 1, username: identity.user.username }).delete();
});

describe('Sign out tapped as soon as Settings shows', () => {
  it('still warns that a change waits to be sent', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    const db = openUserDb({ agencyId: 1, username: identity.user.username });
    await createSite(db, {
      code: '918001',
      name: 'Quick Tap Pond',
      coordinate_precision: 1,
      shape: { type: 'Point', coordinates: [-121.5, 38.6] },
    } as Parameters<typeof createSite>[1]);
    db.close();
    const onSignOut = vi.fn();
    window.history.replaceState(null, '', '/settings');
    render(<SignedInApp identity={identity} onIdentity={() => undefined} onSignOut={onSignOut} />);
    const button = await screen.findByRole('button', { name: 'Sign out' }, { timeout: 10_000 });
    await userEvent.click(button);
    const ask = await screen.findByRole('dialog', { name: 'Sign out with unsent changes?' });
    expect(ask).toHaveTextContent('1 change has not been sent yet');
    expect(onSignOut).not.toHaveBeenCalled();
  });
});
