import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { SettingsScreen } from '../../../../src/client/features/settings/settings-screen';
import { countOutboxReads } from '../../sync/helpers/count-outbox-reads';
import { queueCreate, site } from '../../sync/helpers/outbox-factory';
import { setupEngine } from '../../sync/helpers/setup-engine';
import { renderScreen } from '../helpers/records';

const SITES = 120;

/**
 * Settings left open while a week's queue drains. IndexedDB counts a store by walking every
 * entry (Chromium's backend as fake-indexeddb): a live count of the outbox on this screen ran
 * again with every answer the drain wrote, a walk of the queue per change sent.
 */
describe('Settings open while the queue drains', () => {
  it('does not count the whole outbox with every change sent, and still warns with the exact number', async () => {
    const { db, engine } = setupEngine({}, 2);
    const reads = countOutboxReads(db);
    for (let i = 1; i <= SITES; i += 1) await queueCreate(db, 'site', site(i));
    const onSignOut = vi.fn();
    const user = renderScreen(
      db,
      <SettingsScreen
        username="demo-tech"
        agencyName="Demo Vector Control District"
        onSignOut={onSignOut}
        onRefreshLookups={async () => 'Lookups are up to date'}
      />,
      '/settings',
    );
    await screen.findByRole('button', { name: 'Sign out' });
    const before = reads.fullCounts;

    engine.start();
    await engine.settled();
    expect(await db.outbox.count()).toBe(0);
    // The screen's own reads while 120 changes were sent (the test's count above is one more).
    expect(reads.fullCounts - before).toBeLessThanOrEqual(2);

    // A change saved now: Sign out still names it, counted when tapped.
    await queueCreate(db, 'site', site(SITES + 1));
    await user.click(screen.getByRole('button', { name: 'Sign out' }));
    const ask = await screen.findByRole('dialog', { name: 'Sign out with unsent changes?' });
    expect(ask).toHaveTextContent('1 change has not been sent yet');
    expect(onSignOut).not.toHaveBeenCalled();
  }, 60_000);
});
