import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SyncEngineProvider, SyncStatusBar } from '../../../src/client/features/sync-status';
import { queueCreate, site } from '../sync/helpers/outbox-factory';
import { drain, setupEngine } from '../sync/helpers/setup-engine';

describe('sync status bar', () => {
  it('never says "All changes sent" while a refused change still waits for a fix', async () => {
    const { db, bff, engine } = setupEngine();
    await queueCreate(db, 'site', site(1));
    bff.fault = () => ({ status: 422, code: 'validation_failed', message: 'Site code is taken' });
    render(
      <SyncEngineProvider engine={engine}>
        <SyncStatusBar />
      </SyncEngineProvider>,
    );
    await drain(engine);
    const bar = screen.getByRole('region', { name: 'Sync status' });
    await within(bar).findByText('1 change not sent — it needs your attention');
    expect(within(bar).queryByText('All changes sent')).not.toBeInTheDocument();
  });
});
