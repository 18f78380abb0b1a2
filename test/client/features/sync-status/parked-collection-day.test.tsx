process.env.TZ = 'America/Los_Angeles';

import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ParkedEntries } from '../../../../src/client/features/sync-status/parked-entries';
import { SyncEngineProvider } from '../../../../src/client/features/sync-status';
import { untilStatus } from '../../sync/helpers/adversarial-queues';
import { collection, queueUpdate, site, storeSynced } from '../../sync/helpers/outbox-factory';
import { setupEngine } from '../../sync/helpers/setup-engine';
import { renderScreen } from '../helpers/records';

describe('the Sync screen names a refused change by the day the technician collected', () => {
  it('an evening collection pulled from the server (stored in UTC) is named by its local day', async () => {
    const { db, bff, engine } = setupEngine();
    const serverSite = bff.seed('site', site(1));
    const siteId = await storeSynced(db, 'site', serverSite, site(1));
    // 19:30 on 14 July in California: 02:30 on the 15th in UTC, as the server stores it.
    const evening = {
      ...collection(),
      collection_date: '2026-07-15T02:30:00.000Z',
      site: serverSite.id,
    };
    const server = bff.seed('collection', evening);
    const localId = await storeSynced(db, 'collection', server, evening, siteId);
    await queueUpdate(db, 'collection', localId, { trap_nights: 99 });
    bff.fault = (req) =>
      req.method === 'PUT'
        ? { status: 422, code: 'validation_failed', message: 'Trap nights out of range' }
        : null;
    renderScreen(
      db,
      <SyncEngineProvider engine={engine}>
        <ParkedEntries onFix={() => undefined} />
      </SyncEngineProvider>,
      '/sync',
    );
    engine.requestSync('test');
    await untilStatus(engine, { parked: 1 });

    await screen.findByText('Changes to collection 2026-07-14');
    expect(screen.queryByText(/2026-07-15/)).not.toBeInTheDocument();
  });
});
