import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { useLiveQuery } from 'dexie-react-hooks';
import { afterEach, describe, expect, it } from 'vitest';
import type { TraplineDb } from '../../../../src/client/db/database';
import {
  StoredRecordSyncBadge,
  SyncEngineProvider,
} from '../../../../src/client/features/sync-status';
import type { SyncEngine } from '../../../../src/client/sync';
import { queueCreate, site } from '../../sync/helpers/outbox-factory';
import { setupEngine } from '../../sync/helpers/setup-engine';

afterEach(() => cleanup());

/** A site's badge as its detail screen shows it: the stored row, read live. */
function SiteBadge({ db, localId }: { db: TraplineDb; localId: string }) {
  const row = useLiveQuery(() => db.sites.get(localId), [localId]);
  return <div data-testid={localId}>{row ? <StoredRecordSyncBadge record={row} /> : null}</div>;
}

const badges = (engine: SyncEngine, db: TraplineDb, localIds: string[]) =>
  render(
    <SyncEngineProvider engine={engine}>
      {localIds.map((id) => (
        <SiteBadge key={id} db={db} localId={id} />
      ))}
    </SyncEngineProvider>,
  );

describe('"Sending" on a record', () => {
  it(
    'shows while its create is on the wire, without writing the record, then Synced',
    { timeout: 15_000 },
    async () => {
      // Two sites alike in all but their code: only the one being sent may say Sending.
      const { db, bff, engine } = setupEngine({ concurrency: 1 }, 1000);
      const first = await queueCreate(db, 'site', site(1));
      const second = await queueCreate(db, 'site', { ...site(1), code: '100002' });
      badges(engine, db, [first.localId, second.localId]);
      const badgeOf = (id: string) => within(screen.getByTestId(id));
      await waitFor(() => expect(badgeOf(first.localId).getByText('Saved on tablet')).toBeTruthy());

      engine.start();
      await waitFor(() => expect(badgeOf(first.localId).getByText('Sending')).toBeTruthy());
      expect(badgeOf(second.localId).getByText('Saved on tablet')).toBeTruthy();
      // The request is still out (1 s: room for a loaded machine), and the stored row was not
      // touched to say so.
      expect(bff.all('site')).toHaveLength(0);
      expect((await db.sites.get(first.localId))?.syncState).toBe('queued');

      await waitFor(() => expect(badgeOf(second.localId).getByText('Sending')).toBeTruthy(), {
        timeout: 4000,
      });
      expect(badgeOf(first.localId).getByText('Synced')).toBeTruthy();
      await waitFor(() => expect(badgeOf(second.localId).getByText('Synced')).toBeTruthy(), {
        timeout: 4000,
      });
      expect(bff.all('site').map((s) => s.code)).toEqual(['100001', '100002']);
    },
  );

  it('shows a row an earlier version left "syncing" as saved while nothing sends it', async () => {
    const { db, engine } = setupEngine();
    const queued = await queueCreate(db, 'site', site(3));
    await db.sites.update(queued.localId, { syncState: 'syncing' });
    badges(engine, db, [queued.localId]);
    await screen.findByText('Saved on tablet');
    expect(screen.queryByText('Sending')).toBeNull();
  });
});
