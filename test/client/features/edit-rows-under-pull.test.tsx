import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CollectionFormScreen } from '../../../src/client/features/collections/collection-form-screen';
import { conflictingFields } from '../../../src/client/sync/detect-conflict';
import { storePulledRows } from '../../../src/client/sync/store-pulled-rows';
import { renderScreen, tabletDb, pulledSite } from './helpers/records';

/**
 * The office recounts one of two look-alike abundance rows and changes the lures while the
 * technician's collection form is open; the technician changes the trap nights only. The save
 * carries the trap nights alone (no rows, no lures: nothing the technician did not touch), shows
 * no conflict, and the tablet keeps the office's rows and lures.
 */
const SITE = pulledSite();
const COLLECTION = {
  id: 9,
  collection_date: '2026-07-14T13:30:00.000Z',
  num_trap: 1,
  trap: 2,
  trap_nights: 1,
  trap_problem_bit: false,
  collection_date_date_only: false,
  site: 501,
  agency: 1,
  lures: [{ id: 70, lure: 1 }],
  arthropods: [
    { id: 5, species: 1, sex: 4, num_count: 40 },
    { id: 6, species: 1, sex: 2, num_count: 40 },
  ],
  updated: '2026-07-14T14:00:00.000Z',
};

describe('a collection edited while a pull recounts its rows', { timeout: 20_000 }, () => {
  it('saves only the typed field, with no conflict, keeping the office’s rows and lures', async () => {
    const db = await tabletDb();
    await storePulledRows(db, Date.now(), 'site', [SITE]);
    await storePulledRows(db, Date.now(), 'collection', [COLLECTION]);
    const localId = (await db.collections.where('serverId').equals(9).first())!.localId;
    const user = renderScreen(
      db,
      <CollectionFormScreen localId={localId} />,
      `/collections/${localId}/edit`,
    );
    const nights = await screen.findByLabelText('Trap nights');

    const office = {
      ...COLLECTION,
      lures: [
        { id: 70, lure: 1 },
        { id: 71, lure: 3 },
      ],
      arthropods: [
        { id: 5, species: 1, sex: 4, num_count: 40 },
        { id: 6, species: 1, sex: 2, num_count: 38 },
      ],
      updated: '2026-07-15T08:00:00.000Z',
    };
    await storePulledRows(db, Date.now(), 'collection', [office]);
    await waitFor(async () =>
      expect((await db.collections.get(localId))!.server).toMatchObject({
        updated: office.updated,
      }),
    );

    await user.clear(nights);
    await user.type(nights, '2');
    await user.click(screen.getByRole('button', { name: /Save/ }));
    await waitFor(() => expect(location.pathname).toBe(`/collections/${localId}`));
    const [entry] = await db.outbox.where('localId').equals(localId).toArray();
    expect(entry.payload).toEqual({ trap_nights: 2 });
    expect(conflictingFields(entry, office)).toEqual([]);
    const row = (await db.collections.get(localId))!;
    expect(row.data.lures).toEqual([1, 3]);
    expect(row.data.arthropods).toEqual([
      { species: 1, sex: 4, num_count: 40 },
      { species: 1, sex: 2, num_count: 38 },
    ]);
  });
});
