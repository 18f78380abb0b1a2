import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SignedInApp } from '../../../src/client/app/signed-in-app';
import { createSite } from '../../../src/client/db/create-site';
import { databaseName, openUserDb } from '../../../src/client/db/database';
import type { SessionInfo } from '../../../src/shared';

/**
 * The app's database deleted while the app is open, with a change not yet sent (the browser's
 * developer tools, or anything else that deletes it): the open tab is told through the same event
 * as when a newer app upgrades it. It must not say that everything saved is kept and will be sent:
 * it is gone. The tablet is offline (every request fails as with no network).
 */
const identity: SessionInfo = {
  user: { id: 7, username: `tech-${Math.random().toString(36).slice(2)}`, name: 'Sam' },
  agency: { id: 1, name: 'Demo Vector Control' },
  expiresAt: '2099-01-01T00:00:00.000Z',
};

afterEach(() => vi.unstubAllGlobals());

describe('the database deleted under the open app', () => {
  it('says unsent changes may be gone, not that they are kept', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    const db = openUserDb({ agencyId: 1, username: identity.user.username });
    await createSite(db, {
      code: '919001',
      name: 'Deleted Pond',
      coordinate_precision: 1,
      shape: { type: 'Point', coordinates: [-121.5, 38.6] },
    } as Parameters<typeof createSite>[1]);
    db.close();
    window.history.replaceState(null, '', '/');
    render(
      <SignedInApp identity={identity} onIdentity={() => undefined} onSignOut={() => undefined} />,
    );
    await screen.findByRole('region', { name: 'Sync status' }, { timeout: 10_000 });

    await new Promise<void>((resolve, reject) => {
      const req = indexedDB.deleteDatabase(
        databaseName({ agencyId: 1, username: identity.user.username }),
      );
      req.onsuccess = () => resolve();
      req.onerror = () => reject(req.error);
    });

    const alert = await screen.findByRole('alert', undefined, { timeout: 5_000 });
    expect(alert).not.toHaveTextContent(/is kept/);
    expect(alert).toHaveTextContent(/not sent yet may be gone/);
  });
});
