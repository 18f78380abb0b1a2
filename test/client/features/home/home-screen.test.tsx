import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createCollection } from '../../../../src/client/db/create-collection';
import { createSite } from '../../../../src/client/db/create-site';
import { HomeScreen, homeSyncCounts } from '../../../../src/client/features/home/home-screen';
import {
  SyncEngineProvider,
  SyncStatusBar,
  useSyncStatusOf,
} from '../../../../src/client/features/sync-status';
import { formatDate, localDate } from '../../../../src/client/lib/dates';
import { INITIAL_STATUS } from '../../../../src/client/sync';
import { makeCollection, makeSite } from '../../db/factories';
import {
  queueRefusedWithDependents,
  REFUSED_WITH_DEPENDENTS,
  untilStatus,
} from '../../sync/helpers/adversarial-queues';
import { setupEngine } from '../../sync/helpers/setup-engine';
import { renderScreen, tabletDb } from '../helpers/records';

const DAY = 86_400_000;
/** The local calendar day `days` before today, as a date-only collection is written. */
const daysAgo = (days: number) => localDate(new Date(Date.now() - days * DAY));

const home = <HomeScreen userName="Sam" status={INITIAL_STATUS} online />;

/** Home as the app composes it (HomeRoute): fed the engine's live counts. */
function LiveHome() {
  const status = useSyncStatusOf(homeSyncCounts);
  return <HomeScreen userName="Sam" status={status} online />;
}

describe('home screen', () => {
  it('lists the last week’s collections under today’s, newest first, and nothing older', async () => {
    const db = await tabletDb();
    const site = await createSite(db, makeSite({ code: '100101', name: 'Discovery Park' }));
    for (const [days, comments] of [
      [0, 'today'],
      [2, 'two days ago'],
      [6, 'six days ago'],
      [20, 'three weeks ago'],
    ] as const) {
      await createCollection(
        db,
        site,
        makeCollection({
          collection_date: daysAgo(days),
          collection_date_date_only: true,
          comments,
        }),
      );
    }
    renderScreen(db, home);

    const today = await screen.findByRole('list', { name: 'Today’s collections' });
    expect(within(today).getAllByRole('link')).toHaveLength(1);
    const recent = await screen.findByRole('list', { name: 'Earlier this week' });
    const links = within(recent).getAllByRole('link');
    expect(links).toHaveLength(2);
    expect(links[0]).toHaveTextContent(formatDate(daysAgo(2), true));
    expect(links[1]).toHaveTextContent(formatDate(daysAgo(6), true));
    expect(screen.queryByText(/three weeks ago/)).not.toBeInTheDocument();
  });

  it('says so when nothing was collected today, and still shows the week', async () => {
    const db = await tabletDb();
    const site = await createSite(db, makeSite());
    await createCollection(
      db,
      site,
      makeCollection({ collection_date: daysAgo(3), collection_date_date_only: true }),
    );
    renderScreen(db, home);

    await screen.findByText('No collections today yet.');
    const recent = await screen.findByRole('list', { name: 'Earlier this week' });
    expect(within(recent).getAllByRole('link')).toHaveLength(1);
  });

  it('counts what is not sent as the sync bar does: a refused change, the 2 held behind it and an unrelated one', async () => {
    const { db, bff, engine } = setupEngine({
      backoff: { baseMs: 60_000, capMs: 60_000 },
      random: () => 0.9,
    });
    await queueRefusedWithDependents(db, bff);
    renderScreen(
      db,
      <SyncEngineProvider engine={engine}>
        <SyncStatusBar />
        <LiveHome />
      </SyncEngineProvider>,
    );
    engine.requestSync('test');
    await untilStatus(engine, REFUSED_WITH_DEPENDENTS);

    const bar = screen.getByRole('region', { name: 'Sync status' });
    await within(bar).findByText('4 changes not sent — 1 needs your attention');
    expect(screen.getByTestId('home-pending')).toHaveTextContent('4');
    expect(screen.getByTestId('home-pending').parentElement).toHaveTextContent('4not sent yet');
    expect(screen.getByTestId('home-parked')).toHaveTextContent('1');
    expect(screen.getByRole('link', { name: 'Review' })).toHaveAttribute('href', '/sync');
  });

  it('leaves Sync now to the sync bar: one button on the screen, labelled, and it sends', async () => {
    const { db, bff, engine } = setupEngine();
    await createSite(db, makeSite({ code: '100102', name: 'One Button Pond' }));
    const user = renderScreen(
      db,
      <SyncEngineProvider engine={engine}>
        <SyncStatusBar />
        <LiveHome />
      </SyncEngineProvider>,
    );
    const bar = screen.getByRole('region', { name: 'Sync status' });
    await within(bar).findByRole('button', { name: 'Sync now' });
    expect(screen.getAllByRole('button', { name: 'Sync now' })).toEqual([
      within(bar).getByRole('button', { name: 'Sync now' }),
    ]);
    // Home still says whether the tablet is online.
    expect(screen.getByText('Online')).toBeInTheDocument();

    await user.click(within(bar).getByRole('button', { name: 'Sync now' }));
    await waitFor(() => expect(bff.requests.filter((r) => r.method === 'POST')).toHaveLength(1));
    await within(bar).findByText('All changes sent');
  });
});
