import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ParkedEntries } from '../../../../src/client/features/sync-status/parked-entries';
import { SyncEngineProvider } from '../../../../src/client/features/sync-status';
import { collection, queueCreate, site } from '../../sync/helpers/outbox-factory';
import { setupEngine } from '../../sync/helpers/setup-engine';
import { renderBarAndHome } from '../helpers/bar-and-home';
import { renderScreen } from '../helpers/records';

describe('the app opening over a queue', () => {
  it('says nothing is sent, nor "0 not sent", before it has counted the outbox', async () => {
    const { db, engine } = setupEngine();
    const parent = await queueCreate(db, 'site', site(1));
    await queueCreate(db, 'collection', collection('2026-07-14'), parent.localId);
    await queueCreate(db, 'collection', collection('2026-07-14'), parent.localId);
    // The app starts the engine and shows the bar and Home at once, before any count is read.
    engine.start();
    renderBarAndHome(db, engine);
    const bar = screen.getByRole('region', { name: 'Sync status' });
    expect(within(bar).queryByText('All changes sent')).not.toBeInTheDocument();
    expect(within(bar).queryByText('0 pending')).not.toBeInTheDocument();
    expect(screen.queryByTestId('home-pending')?.textContent ?? '').not.toBe('0');
    // Once counted: the three changes.
    await within(bar).findByText(/3 changes|Sending…|All changes sent/);
  });

  it('the Sync screen, opened with the app, does not say "All changes sent." before counting', async () => {
    const { db, engine } = setupEngine();
    const parent = await queueCreate(db, 'site', site(1));
    await queueCreate(db, 'collection', collection('2026-07-14'), parent.localId);
    engine.start();
    renderScreen(
      db,
      <SyncEngineProvider engine={engine}>
        <ParkedEntries onFix={() => undefined} />
      </SyncEngineProvider>,
      '/sync',
    );
    expect(screen.queryByText('All changes sent.')).not.toBeInTheDocument();
    await screen.findByText(/changes not sent|All changes sent/);
  });
});
