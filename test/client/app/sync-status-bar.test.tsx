import { render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
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
    // Said once: the headline already names it, a second sentence would only crowd the bar.
    expect(within(bar).queryByText(/before it can be sent/)).not.toBeInTheDocument();
  });

  it('says refused changes need attention beside what waits offline', async () => {
    const { db, bff, engine } = setupEngine();
    await queueCreate(db, 'site', site(1));
    await queueCreate(db, 'site', site(2));
    bff.fault = () => ({ status: 422, code: 'validation_failed', message: 'Site code is taken' });
    await drain(engine);
    await queueCreate(db, 'site', site(3));
    vi.stubGlobal('navigator', { ...navigator, onLine: false });
    engine.start();
    render(
      <SyncEngineProvider engine={engine}>
        <SyncStatusBar />
      </SyncEngineProvider>,
    );
    const bar = screen.getByRole('region', { name: 'Sync status' });
    await within(bar).findByText('Offline — 1 change saved on this tablet');
    await within(bar).findByText('2 changes need your attention before they can be sent.');
  });
});
