import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createCollection } from '../../../../src/client/db/create-collection';
import { createSite } from '../../../../src/client/db/create-site';
import { HomeScreen } from '../../../../src/client/features/home/home-screen';
import { formatDate, localDate } from '../../../../src/client/lib/dates';
import { makeCollection, makeSite } from '../../db/factories';
import { renderScreen, tabletDb } from '../helpers/records';

const DAY = 86_400_000;
/** The local calendar day `days` before today, as a date-only collection is written. */
const daysAgo = (days: number) => localDate(new Date(Date.now() - days * DAY));

const home = (
  <HomeScreen userName="Sam" pending={0} parked={0} online onSyncNow={() => undefined} />
);

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
});
