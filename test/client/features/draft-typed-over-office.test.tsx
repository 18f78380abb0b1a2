import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { DbContext } from '../../../src/client/db/db-context';
import type { TraplineDb } from '../../../src/client/db/database';
import { CollectionFormScreen } from '../../../src/client/features/collections/collection-form-screen';
import { SiteFormScreen } from '../../../src/client/features/sites/site-form-screen';
import { conflictingFields } from '../../../src/client/sync/detect-conflict';
import { storePulledRows } from '../../../src/client/sync/store-pulled-rows';
import { tabletDb, pulledSite } from './helpers/records';

/**
 * A technician types over a field, the app closes (the typing is a draft), a pull brings the
 * office's change of that same field, and the restored draft is saved. The technician typed over
 * the value they saw then, not over the office's: as with a form left open under a pull
 * (edit-form-same-field.test.tsx), sending it must be a conflict, not a silent overwrite.
 */
const SLOW = { timeout: 20_000 };

const serverSite = (over: Record<string, unknown> = {}) =>
  pulledSite({
    id: 502,
    code: '104234',
    name: 'Putah Creek S',
    comments: 'Gate open',
    add_date: '2026-07-01T10:00:00.000Z',
    ...over,
  });

function mount(db: TraplineDb, localId: string) {
  history.replaceState(null, '', `/sites/${localId}/edit`);
  return render(
    <DbContext.Provider value={db}>
      <SiteFormScreen localId={localId} />
    </DbContext.Provider>,
  ).unmount;
}

async function typeCloseAndReopen(field: 'Comments' | 'Site name', typed: string) {
  const db = await tabletDb();
  // A look-alike neighbour with the same comment: the draft must not take its values.
  await storePulledRows(db, Date.now(), 'site', [
    serverSite(),
    serverSite({ id: 503, code: '104235', name: 'Putah Creek S2' }),
  ]);
  const localId = (await db.sites.where('serverId').equals(502).first())!.localId;
  const user = userEvent.setup();
  const unmount = mount(db, localId);
  const input = await screen.findByLabelText(field);
  await user.clear(input);
  await user.type(input, typed);
  await waitFor(
    async () => expect(await db.meta.where('key').startsWith('draft:').count()).toBe(1),
    { timeout: 3000 },
  );
  unmount();

  // The app is closed; the tablet syncs: the office changed the comment meanwhile.
  const office = serverSite({ comments: 'Gate code 4411', updated: '2026-07-02T08:00:00.000Z' });
  await storePulledRows(db, Date.now(), 'site', [office]);

  mount(db, localId);
  expect(await screen.findByText(/Restored what you typed/)).toBeVisible();
  await user.click(screen.getByRole('button', { name: 'Save site' }));
  await waitFor(() => expect(location.pathname).toBe(`/sites/${localId}`));
  const entries = await db.outbox.where('localId').equals(localId).toArray();
  return { entries, office, db, localId };
}

describe('a restored edit draft saved over the office’s change', SLOW, () => {
  it('is a conflict when the office changed the same field', async () => {
    const { entries, office } = await typeCloseAndReopen('Comments', 'Gate locked');
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ op: 'update', payload: { comments: 'Gate locked' } });
    expect(conflictingFields(entries[0], office)).toEqual(['comments']);
  });

  it('is no conflict when the office changed another field, and keeps the office’s value', async () => {
    const { entries, office, db, localId } = await typeCloseAndReopen(
      'Site name',
      'Putah Creek South',
    );
    expect(entries).toHaveLength(1);
    expect(entries[0].payload).toEqual({ name: 'Putah Creek South' });
    expect(conflictingFields(entries[0], office)).toEqual([]);
    expect((await db.sites.get(localId))!.data.comments).toBe('Gate code 4411');
  });
});

/** Two look-alike rows: one species, two sexes, equal counts. */
const COLLECTION = {
  id: 9,
  collection_date: '2026-07-14T13:30:00.000Z',
  num_trap: 1,
  trap: 2,
  trap_nights: 1,
  site: 502,
  agency: 1,
  lures: [],
  arthropods: [
    { id: 5, species: 1, sex: 4, num_count: 40 },
    { id: 6, species: 1, sex: 2, num_count: 40 },
  ],
  updated: '2026-07-14T14:00:00.000Z',
};

describe('a restored collection draft with look-alike rows', SLOW, () => {
  it('is a conflict on the rows when the office recounted the other row meanwhile', async () => {
    const db = await tabletDb();
    await storePulledRows(db, Date.now(), 'site', [serverSite()]);
    await storePulledRows(db, Date.now(), 'collection', [COLLECTION]);
    const localId = (await db.collections.where('serverId').equals(9).first())!.localId;
    const at = `/collections/${localId}/edit`;
    const ui = () => (
      <DbContext.Provider value={db}>
        <CollectionFormScreen localId={localId} />
      </DbContext.Provider>
    );
    history.replaceState(null, '', at);
    const user = userEvent.setup();
    const first = render(ui());
    const count1 = await screen.findByLabelText('Count (row 1)');
    await user.clear(count1);
    await user.type(count1, '45');
    await waitFor(
      async () => expect(await db.meta.where('key').startsWith('draft:').count()).toBe(1),
      { timeout: 3000 },
    );
    first.unmount();

    // The office recounts the other (look-alike) row: 40 -> 38.
    const office = {
      ...COLLECTION,
      arthropods: [
        { id: 5, species: 1, sex: 4, num_count: 40 },
        { id: 6, species: 1, sex: 2, num_count: 38 },
      ],
      updated: '2026-07-15T08:00:00.000Z',
    };
    await storePulledRows(db, Date.now(), 'collection', [office]);
    history.replaceState(null, '', at);
    render(ui());
    expect(await screen.findByText(/Restored what you typed/)).toBeVisible();
    await user.click(screen.getByRole('button', { name: /Save/ }));
    await waitFor(() => expect(location.pathname).toBe(`/collections/${localId}`));
    const entries = await db.outbox.where('localId').equals(localId).toArray();
    expect(entries).toHaveLength(1);
    // The rows as restored hold the office's row as it was: sending them silently would undo
    // the office's recount. A person chooses.
    expect(conflictingFields(entries[0], office)).toEqual(['arthropods']);
  });
});
