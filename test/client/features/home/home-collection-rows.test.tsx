import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createCollection } from '../../../../src/client/db/create-collection';
import { createSite } from '../../../../src/client/db/create-site';
import { HomeScreen } from '../../../../src/client/features/home/home-screen';
import { localDate } from '../../../../src/client/lib/dates';
import { INITIAL_STATUS } from '../../../../src/client/sync';
import { makeCollection, makeSite } from '../../db/factories';
import { renderScreen, tabletDb } from '../helpers/records';

const daysAgo = (days: number) => localDate(new Date(Date.now() - days * 86_400_000));

// Field trial (issue 35): "Earlier this week" rows gave a site and a date only; two traps at one
// site on one day looked the same, and the technician had to open each to see what it caught.
describe('home: the week’s collections', () => {
  it('name the trap and the count caught on every row, an empty trap as such', async () => {
    const db = await tabletDb();
    const site = await createSite(db, makeSite({ code: '100101', name: 'Discovery Park' }));
    await createCollection(
      db,
      site,
      makeCollection({
        collection_date: daysAgo(2),
        collection_date_date_only: true,
        trap: 1,
        arthropods: [
          { species: 1, sex: 1, num_count: 120 },
          { species: 2, sex: 4, num_count: 7 },
        ],
      }),
    );
    await createCollection(
      db,
      site,
      makeCollection({
        collection_date: daysAgo(2),
        collection_date_date_only: true,
        trap: 2,
        num_trap: 2,
        arthropods: [],
      }),
    );
    await createCollection(
      db,
      site,
      makeCollection({ collection_date: daysAgo(0), collection_date_date_only: true, trap: 2 }),
    );
    renderScreen(db, <HomeScreen userName="Sam" status={INITIAL_STATUS} online />);

    const earlier = await screen.findByRole('list', { name: 'Earlier this week' });
    // Once the tablet's lists are read, the trap by its name.
    await within(earlier).findByText(/Gravid trap · 127 counted/);
    const rows = within(earlier)
      .getAllByRole('link')
      .map((a) => a.textContent);
    expect(rows).toHaveLength(2);
    expect(rows).toContainEqual(expect.stringMatching(/2 × CO2 trap · empty/));
    const today = await screen.findByRole('list', { name: 'Today’s collections' });
    expect(within(today).getByRole('link').textContent).toMatch(/CO2 trap · 120 counted/);
  });
});
