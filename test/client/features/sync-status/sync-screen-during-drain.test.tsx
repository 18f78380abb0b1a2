import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SyncEngineProvider } from '../../../../src/client/features/sync-status';
import { ParkedEntries } from '../../../../src/client/features/sync-status/parked-entries';
import { untilStatus } from '../../sync/helpers/adversarial-queues';
import { countOutboxReads } from '../../sync/helpers/count-outbox-reads';
import { collection, queueCreate, site } from '../../sync/helpers/outbox-factory';
import { setupEngine } from '../../sync/helpers/setup-engine';
import { renderScreen } from '../helpers/records';

const SITES = 120;

/**
 * The Sync screen left open while a week's queue drains (a technician back in signal watching it
 * go). It lists the changes the server refused, with what each holds back, from the whole outbox;
 * read live, that read ran again with every answer the drain wrote: the queue read whole per
 * change sent, each read one long task on a tablet. The drain itself reads the outbox whole a few
 * times (draining-counts.test: at most 8); the screen must add only a few more.
 */
describe('the Sync screen while the queue drains', () => {
  const render = (engine: ReturnType<typeof setupEngine>['engine']) =>
    renderScreen(
      engine.db,
      <SyncEngineProvider engine={engine}>
        <ParkedEntries onFix={() => undefined} onResolveConflict={() => undefined} />
      </SyncEngineProvider>,
      '/sync',
    );

  it('does not read the whole outbox with every change sent while nothing is refused', async () => {
    const { db, engine } = setupEngine({}, 2);
    const reads = countOutboxReads(db);
    for (let i = 1; i <= SITES; i += 1) await queueCreate(db, 'site', site(i));
    render(engine);
    const before = reads.full;

    engine.start();
    await untilStatus(engine, { pending: 0, sending: 0, parked: 0 });
    expect(await db.outbox.count()).toBe(0);
    expect(reads.full - before).toBeLessThanOrEqual(10);
    expect(screen.getByText('All changes sent.')).toBeInTheDocument();
  }, 60_000);

  it('lists a refused look-alike and what it holds once the drain ends, reading the outbox a few times, not per change', async () => {
    const { db, bff, engine } = setupEngine({}, 2);
    const reads = countOutboxReads(db);
    // The refused site looks like the others (same shape, the next number): its two
    // collections, the same day and trap, wait on it.
    const refused = await queueCreate(db, 'site', site(0));
    await queueCreate(db, 'collection', collection(), refused.localId);
    await queueCreate(db, 'collection', collection(), refused.localId);
    for (let i = 1; i <= SITES; i += 1) await queueCreate(db, 'site', site(i));
    bff.fault = (req) =>
      req.key === refused.entryId
        ? { status: 409, code: 'site_code_taken', message: 'Site code 100000 is already used' }
        : null;
    render(engine);
    const before = reads.full;

    engine.start();
    await untilStatus(engine, { pending: 0, sending: 0, parked: 1, held: 2 });
    const name = await screen.findByText('New site 100000 Site 0', {}, { timeout: 5_000 });
    const item = name.closest('li') as HTMLElement;
    expect(item).toHaveTextContent('Site code 100000 is already used');
    const held = within(item).getByRole('list', { name: 'Held back by it' });
    expect(within(held).getAllByText('New collection 2026-07-14')).toHaveLength(2);
    // Once a second at most while it drained (a drain of about a second here), plus the drain's own.
    expect(reads.full - before).toBeLessThanOrEqual(14);
  }, 60_000);
});
