import { render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { SyncEngineProvider, SyncStatusBar } from '../../../../src/client/features/sync-status';
import { collection, queueCreate, site } from '../../sync/helpers/outbox-factory';
import { setupEngine } from '../../sync/helpers/setup-engine';

describe('sync status bar, offline', () => {
  it('after the app was closed mid-send, says nothing is being sent while there is no network', async () => {
    const { db, engine } = setupEngine();
    const parent = await queueCreate(db, 'site', site(1));
    // The new site was being sent when the app was closed (its entry is still stored as being
    // sent); two look-alike collections at it, same day, wait behind it.
    await queueCreate(db, 'collection', collection('2026-07-14'), parent.localId);
    await queueCreate(db, 'collection', collection('2026-07-14'), parent.localId);
    await db.outbox.update(parent.entryId, { state: 'sending', frozen: true, attempts: 1 });

    vi.stubGlobal('navigator', { ...navigator, onLine: false });
    engine.start();
    render(
      <SyncEngineProvider engine={engine}>
        <SyncStatusBar />
      </SyncEngineProvider>,
    );
    const bar = screen.getByRole('region', { name: 'Sync status' });
    await within(bar).findByText('Offline — 3 changes saved on this tablet');
    const counts = within(within(bar).getByRole('list', { name: 'Changes by state' }));
    expect(counts.getByText('0 sending')).toBeInTheDocument();
    expect(counts.getByText('3 pending')).toBeInTheDocument();
  });
});
