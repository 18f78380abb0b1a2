import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { localDate } from '../../../../src/client/lib/dates';
import { untilStatus } from '../../sync/helpers/adversarial-queues';
import {
  collection,
  pool,
  queueCreate,
  queueUpdate,
  site,
  storeSynced,
} from '../../sync/helpers/outbox-factory';
import { setupEngine } from '../../sync/helpers/setup-engine';
import { renderBarAndHome } from '../helpers/bar-and-home';

describe('Home and the sync bar tell the same story', () => {
  it('three look-alike collections at one site today, one refused (with a pool held), one pending, one in conflict', async () => {
    const { db, bff, engine } = setupEngine({
      backoff: { baseMs: 60_000, capMs: 60_000 },
      random: () => 0.9,
    });
    const today = localDate();
    const serverSite = bff.seed('site', site(1));
    const siteId = await storeSynced(db, 'site', serverSite, site(1));
    // Same site, same day, same trap: only their fate differs.
    const refused = await queueCreate(
      db,
      'collection',
      { ...collection(today), site: serverSite.id },
      siteId,
    );
    await queueCreate(db, 'pool', pool(), refused.localId);
    const pending = await queueCreate(
      db,
      'collection',
      { ...collection(today), site: serverSite.id },
      siteId,
    );
    const serverCollection = bff.seed('collection', {
      ...collection(today),
      site: serverSite.id,
      comments: 'dry',
    });
    const conflicted = await storeSynced(
      db,
      'collection',
      serverCollection,
      { ...collection(today), comments: 'dry' },
      siteId,
    );
    await queueUpdate(db, 'collection', conflicted, { comments: 'larvae seen' });
    bff.edit('collection', serverCollection.id, { comments: 'pumped out' });
    bff.fault = (req) => {
      if (req.key === refused.entryId)
        return { status: 422, code: 'validation_failed', message: 'Trap nights out of range' };
      if (req.key === pending.entryId) return { status: 503 };
      return null;
    };
    renderBarAndHome(db, engine);
    engine.requestSync('test');
    await untilStatus(engine, { pending: 1, parked: 1, conflict: 1, held: 1, sending: 0 });

    const bar = screen.getByRole('region', { name: 'Sync status' });
    await within(bar).findByText('4 changes not sent — 2 need your attention');
    expect(screen.getByTestId('home-pending')).toHaveTextContent('4');
    expect(screen.getByTestId('home-parked')).toHaveTextContent('2');
    expect(screen.getByText('1 more change waits on them')).toBeInTheDocument();

    // Home's list: each of the 2 counted as needing fixing is marked so, the pending one as not sent.
    const list = await screen.findByRole('list', { name: 'Today’s collections' });
    const tagOf = (localId: string) =>
      within(list)
        .getAllByRole('link')
        .find((a) => a.getAttribute('href') === `/collections/${localId}`)
        ?.querySelector('.tag')?.textContent;
    await within(list).findAllByText('needs fixing');
    expect(tagOf(refused.localId)).toBe('needs fixing');
    expect(tagOf(conflicted)).toBe('needs fixing');
    expect(tagOf(pending.localId)).toBe('not sent');
    expect(within(list).getAllByText('needs fixing')).toHaveLength(2);
  });
});
