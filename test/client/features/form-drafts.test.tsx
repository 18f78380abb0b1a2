import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { describe, expect, it } from 'vitest';
import { Route, Switch } from 'wouter';
import type { TraplineDb } from '../../../src/client/db/database';
import { DbContext } from '../../../src/client/db/db-context';
import { deletePool } from '../../../src/client/db/delete-pool';
import { CollectionFormScreen } from '../../../src/client/features/collections/collection-form-screen';
import { MakePoolsScreen } from '../../../src/client/features/pools/make-pools-screen';
import { PoolEditScreen } from '../../../src/client/features/pools/pool-edit-screen';
import { PoolTestScreen } from '../../../src/client/features/pool-tests/pool-test-screen';
import { SiteFormScreen } from '../../../src/client/features/sites/site-form-screen';
import { storePulledRows } from '../../../src/client/sync/store-pulled-rows';
import { LeaveGuard } from '../../../src/client/ui/form/leave-guard';
import { tabletDb, pulledSite } from './helpers/records';

// Unsaved typing survives the tab being killed: each record form keeps a draft in the tablet's
// database and restores it when the same form is opened again. Unmounting a screen and mounting
// it again is what a reload does to the form.

// Much typing per test: on a busy machine the first one outlasts the default 5 s.
const SLOW = { timeout: 20_000 };

const RESTORED = /Restored what you typed on .+ before the app closed\./;
const CHANGED = /changed on this tablet since/;

const SITE = pulledSite();
/** Two look-alike rows: one species, two sexes, equal counts. */
const COLLECTION = {
  id: 9,
  collection_date: '2026-07-14T13:30:00.000Z',
  num_trap: 1,
  trap: 2,
  trap_nights: 1,
  site: 501,
  agency: 1,
  lures: [],
  arthropods: [
    { id: 5, species: 1, sex: 4, num_count: 40 },
    { id: 6, species: 1, sex: 2, num_count: 40 },
  ],
  updated: '2026-07-14T14:00:00.000Z',
};

async function pulledCollection() {
  const db = await tabletDb();
  await storePulledRows(db, Date.now(), 'site', [SITE]);
  await storePulledRows(db, Date.now(), 'collection', [COLLECTION]);
  const siteId = (await db.sites.where('serverId').equals(501).first())!.localId;
  const collectionId = (await db.collections.where('serverId').equals(9).first())!.localId;
  return { db, siteId, collectionId };
}

/** Mounts a screen over the tablet's database; unmounting it is what a reload does to it. */
function mount(db: TraplineDb, ui: ReactElement, at: string) {
  history.replaceState(null, '', at);
  const view = render(<DbContext.Provider value={db}>{ui}</DbContext.Provider>);
  return view.unmount;
}

async function drafts(db: TraplineDb) {
  return db.meta.where('key').startsWith('draft:').toArray();
}

/** Waits until the form's debounced draft is on the tablet. */
async function draftWritten(db: TraplineDb, count = 1) {
  await waitFor(async () => expect(await drafts(db)).toHaveLength(count), { timeout: 3000 });
}

const rowValues = (n: number) => [
  (screen.getByLabelText(`Species (row ${n})`) as HTMLSelectElement).value,
  (screen.getByLabelText(`Sex (row ${n})`) as HTMLSelectElement).value,
  (screen.getByLabelText(`Count (row ${n})`) as HTMLInputElement).value,
];

describe('a new collection’s typing', SLOW, () => {
  it('comes back, look-alike rows in their order, with a notice, after the screen is reloaded', async () => {
    const { db, siteId } = await pulledCollection();
    const screenUi = <CollectionFormScreen />;
    const at = `/collections/new?site=${siteId}`;
    const user = userEvent.setup();
    const unmount = mount(db, screenUi, at);
    await user.selectOptions(await screen.findByLabelText('Trap type'), '1');
    await user.click(screen.getByRole('checkbox', { name: 'CO2 (Dry ice)' }));
    for (const [n, sex] of [
      [1, '4'],
      [2, '2'],
    ] as const) {
      await user.click(screen.getByRole('button', { name: 'Add row' }));
      await user.selectOptions(screen.getByLabelText(`Species (row ${n})`), '1');
      await user.selectOptions(screen.getByLabelText(`Sex (row ${n})`), sex);
      await user.type(screen.getByLabelText(`Count (row ${n})`), '25');
    }
    await user.type(screen.getByLabelText('Comments'), 'Standing water by the gate');
    await draftWritten(db);
    unmount();

    mount(db, screenUi, at);
    expect(await screen.findByText(RESTORED)).toBeVisible();
    await waitFor(() => expect(rowValues(1)).toEqual(['1', '4', '25']));
    expect(rowValues(2)).toEqual(['1', '2', '25']);
    expect(screen.getByLabelText('Trap type')).toHaveValue('1');
    expect(screen.getByRole('checkbox', { name: 'CO2 (Dry ice)' })).toBeChecked();
    expect(screen.getByLabelText('Comments')).toHaveValue('Standing water by the gate');
    expect(screen.getByTestId('abundance-total')).toHaveTextContent('50');
    expect(screen.queryByText(CHANGED)).not.toBeInTheDocument();
  });

  it('is removed by a successful save, and the form opens clean next time', async () => {
    const { db, siteId } = await pulledCollection();
    const at = `/collections/new?site=${siteId}`;
    const user = userEvent.setup();
    let unmount = mount(db, <CollectionFormScreen />, at);
    await user.selectOptions(await screen.findByLabelText('Trap type'), '2');
    await draftWritten(db);
    unmount();

    unmount = mount(db, <CollectionFormScreen />, at);
    expect(await screen.findByText(RESTORED)).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Save collection' }));
    await waitFor(() => expect(location.pathname).toMatch(/^\/collections\/[^/]+$/));
    await waitFor(async () => expect(await drafts(db)).toEqual([]));
    unmount();

    mount(db, <CollectionFormScreen />, at);
    await screen.findByLabelText('Trap type');
    expect(screen.getByLabelText('Trap type')).toHaveValue('');
    expect(screen.queryByText(RESTORED)).not.toBeInTheDocument();
  });

  it('does not mix with an edit draft of another collection', async () => {
    const { db, siteId, collectionId } = await pulledCollection();
    const newAt = `/collections/new?site=${siteId}`;
    const editAt = `/collections/${collectionId}/edit`;
    const user = userEvent.setup();
    let unmount = mount(db, <CollectionFormScreen />, newAt);
    await user.type(await screen.findByLabelText('Comments'), 'New one');
    await draftWritten(db);
    unmount();

    unmount = mount(db, <CollectionFormScreen localId={collectionId} />, editAt);
    const nights = await screen.findByLabelText('Trap nights');
    expect(screen.getByLabelText('Comments')).toHaveValue('');
    expect(screen.queryByText(RESTORED)).not.toBeInTheDocument();
    await user.clear(nights);
    await user.type(nights, '3');
    await draftWritten(db, 2);
    unmount();

    unmount = mount(db, <CollectionFormScreen />, newAt);
    expect(await screen.findByText(RESTORED)).toBeVisible();
    expect(screen.getByLabelText('Comments')).toHaveValue('New one');
    expect(screen.getByLabelText('Trap nights')).toHaveValue('1');
    unmount();

    mount(db, <CollectionFormScreen localId={collectionId} />, editAt);
    expect(await screen.findByText(RESTORED)).toBeVisible();
    expect(screen.getByLabelText('Trap nights')).toHaveValue('3');
    expect(screen.getByLabelText('Comments')).toHaveValue('');
  });

  it('brings back a count typed with a slip as it was typed, and Save still says what is wrong', async () => {
    const { db, siteId } = await pulledCollection();
    const at = `/collections/new?site=${siteId}`;
    const user = userEvent.setup();
    const unmount = mount(db, <CollectionFormScreen />, at);
    await user.click(await screen.findByRole('button', { name: 'Add row' }));
    await user.selectOptions(screen.getByLabelText('Species (row 1)'), '1');
    await user.selectOptions(screen.getByLabelText('Sex (row 1)'), '4');
    // A gloved thumb catches the letter beside the digits.
    await user.type(screen.getByLabelText('Count (row 1)'), '12a');
    await user.type(screen.getByLabelText('Trap nights'), '{backspace}3');
    await draftWritten(db);
    unmount();

    mount(db, <CollectionFormScreen />, at);
    expect(await screen.findByText(RESTORED)).toBeVisible();
    await waitFor(() => expect(rowValues(1)).toEqual(['1', '4', '12a']));
    expect(screen.getByLabelText('Trap nights')).toHaveValue('3');
    await user.click(screen.getByRole('button', { name: 'Save collection' }));
    expect(await screen.findByText(/Count must be a number/)).toBeVisible();
    expect(rowValues(1)).toEqual(['1', '4', '12a']);
  });
});

describe('an edit of a collection with look-alike rows', SLOW, () => {
  it('restores the typed rows; Discard draft returns to the saved values and removes the draft', async () => {
    const { db, collectionId } = await pulledCollection();
    const ui = <CollectionFormScreen localId={collectionId} />;
    const at = `/collections/${collectionId}/edit`;
    const user = userEvent.setup();
    let unmount = mount(db, ui, at);
    const count2 = await screen.findByLabelText('Count (row 2)');
    await user.clear(count2);
    await user.type(count2, '38');
    await user.selectOptions(screen.getByLabelText('Sex (row 1)'), '5');
    await draftWritten(db);
    unmount();

    unmount = mount(db, ui, at);
    const notice = await screen.findByText(RESTORED);
    await waitFor(() => expect(rowValues(1)).toEqual(['1', '5', '40']));
    expect(rowValues(2)).toEqual(['1', '2', '38']);
    expect(screen.queryByText(CHANGED)).not.toBeInTheDocument();

    await user.click(
      within(notice.closest('[role="status"]') as HTMLElement).getByRole('button', {
        name: 'Discard draft',
      }),
    );
    await waitFor(() => expect(rowValues(1)).toEqual(['1', '4', '40']));
    expect(rowValues(2)).toEqual(['1', '2', '40']);
    expect(screen.queryByText(RESTORED)).not.toBeInTheDocument();
    await waitFor(async () => expect(await drafts(db)).toEqual([]));
    unmount();

    mount(db, ui, at);
    await screen.findByLabelText('Count (row 2)');
    expect(rowValues(2)).toEqual(['1', '2', '40']);
    expect(screen.queryByText(RESTORED)).not.toBeInTheDocument();
  });

  it('saves a restored draft as an edit and removes the draft', async () => {
    const { db, collectionId } = await pulledCollection();
    const ui = <CollectionFormScreen localId={collectionId} />;
    const at = `/collections/${collectionId}/edit`;
    const user = userEvent.setup();
    const unmount = mount(db, ui, at);
    const count1 = await screen.findByLabelText('Count (row 1)');
    await user.clear(count1);
    await user.type(count1, '41');
    await draftWritten(db);
    unmount();

    mount(db, ui, at);
    await screen.findByText(RESTORED);
    await user.click(screen.getByRole('button', { name: 'Save collection' }));
    await waitFor(() => expect(location.pathname).toBe(`/collections/${collectionId}`));
    await waitFor(async () => expect(await drafts(db)).toEqual([]));
    const row = (await db.collections.get(collectionId))!;
    expect(row.data.arthropods).toMatchObject([
      { species: 1, sex: 4, num_count: 41 },
      { species: 1, sex: 2, num_count: 40 },
    ]);
  });

  it('leaves no draft when what was typed matches the saved values', async () => {
    const { db, collectionId } = await pulledCollection();
    const user = userEvent.setup();
    mount(db, <CollectionFormScreen localId={collectionId} />, `/collections/${collectionId}/edit`);
    const nights = await screen.findByLabelText('Trap nights');
    await user.clear(nights);
    await user.type(nights, '2');
    await draftWritten(db);
    await user.clear(nights);
    await user.type(nights, '1');
    await waitFor(async () => expect(await drafts(db)).toEqual([]), { timeout: 3000 });
  });

  it('restores the typing over a record a pull changed meanwhile, and says so', async () => {
    const { db, collectionId } = await pulledCollection();
    const ui = <CollectionFormScreen localId={collectionId} />;
    const at = `/collections/${collectionId}/edit`;
    const user = userEvent.setup();
    const unmount = mount(db, ui, at);
    const nights = await screen.findByLabelText('Trap nights');
    await user.clear(nights);
    await user.type(nights, '2');
    await draftWritten(db);
    unmount();

    // The tablet syncs before the form is opened again: the office added a comment.
    await storePulledRows(db, Date.now(), 'collection', [
      { ...COLLECTION, comments: 'Trap moved 5 m north', updated: '2026-07-15T08:00:00.000Z' },
    ]);
    mount(db, ui, at);
    expect(await screen.findByText(RESTORED)).toBeVisible();
    expect(screen.getByText(CHANGED)).toBeVisible();
    expect(screen.getByLabelText('Trap nights')).toHaveValue('2');
    // The office's comment is there: the draft brings back only what was typed.
    expect(screen.getByLabelText('Comments')).toHaveValue('Trap moved 5 m north');
  });
});

describe('leaving a form', SLOW, () => {
  it('Cancel asks first, and Discard changes removes the draft', async () => {
    const { db, collectionId } = await pulledCollection();
    const user = userEvent.setup();
    mount(db, <CollectionFormScreen localId={collectionId} />, `/collections/${collectionId}/edit`);
    await user.type(await screen.findByLabelText('Comments'), 'Not this one');
    await draftWritten(db);
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    // Not gone on one tap: the collection form asks in its own sheet (a form opened from its
    // address has nothing of the app in history for the leave guard to catch).
    expect(await drafts(db)).toHaveLength(1);
    await user.click(await screen.findByRole('button', { name: 'Discard changes' }));
    await waitFor(async () => expect(await drafts(db)).toEqual([]));
  });

  it('asked first, Keep editing keeps the draft and Discard changes removes it', async () => {
    const { db, collectionId } = await pulledCollection();
    history.replaceState(null, '', '/');
    history.pushState(null, '', `/collections/${collectionId}/edit`);
    render(
      <DbContext.Provider value={db}>
        <LeaveGuard />
        <Switch>
          <Route path="/collections/:id/edit">
            <CollectionFormScreen localId={collectionId} />
          </Route>
          <Route>
            <h1>Home</h1>
          </Route>
        </Switch>
      </DbContext.Provider>,
    );
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Comments'), 'Maybe this one');
    await draftWritten(db);

    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await user.click(await screen.findByRole('button', { name: 'Keep editing' }));
    await draftWritten(db);
    expect(screen.getByLabelText('Comments')).toHaveValue('Maybe this one');

    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await user.click(await screen.findByRole('button', { name: 'Discard changes' }));
    expect(await screen.findByRole('heading', { name: 'Home' })).toBeVisible();
    await waitFor(async () => expect(await drafts(db)).toEqual([]));
  });
});

describe('drafts of the other record forms', SLOW, () => {
  it('the pool builder gets its changed and removed pools back', async () => {
    const { db, collectionId } = await pulledCollection();
    const ui = <MakePoolsScreen collectionLocalId={collectionId} />;
    const at = `/collections/${collectionId}/pools/new`;
    const user = userEvent.setup();
    const unmount = mount(db, ui, at);
    const count1 = await screen.findByLabelText('Pool 1 count');
    await user.clear(count1);
    await user.type(count1, '30');
    await user.click(screen.getByRole('button', { name: 'Remove pool 2' }));
    await draftWritten(db);
    unmount();

    mount(db, ui, at);
    expect(await screen.findByText(RESTORED)).toBeVisible();
    expect(screen.getByLabelText('Pool 1 count')).toHaveValue('30');
    expect(screen.queryByLabelText('Pool 2 count')).not.toBeInTheDocument();
  });

  it('a new site’s typing comes back', async () => {
    const db = await tabletDb();
    const user = userEvent.setup();
    const unmount = mount(db, <SiteFormScreen />, '/sites/new');
    await user.type(await screen.findByLabelText('Site name'), 'Willow Slough');
    await user.type(screen.getByLabelText('Latitude'), '38.6');
    await draftWritten(db);
    unmount();

    mount(db, <SiteFormScreen />, '/sites/new');
    expect(await screen.findByText(RESTORED)).toBeVisible();
    expect(screen.getByLabelText('Site name')).toHaveValue('Willow Slough');
    expect(screen.getByLabelText('Latitude')).toHaveValue('38.6');
  });

  it('a pool test’s typing comes back', async () => {
    const { db } = await pulledCollection();
    await storePulledRows(db, Date.now(), 'pool', [
      { id: 30, collection: 9, species: 1, sex: 4, num_count: 40, agency: 1 },
    ]);
    const poolId = (await db.pools.where('serverId').equals(30).first())!.localId;
    const ui = <PoolTestScreen poolLocalId={poolId} ownAgencyId={1} />;
    const user = userEvent.setup();
    const unmount = mount(db, ui, `/pools/${poolId}/tests/new`);
    await user.type(await screen.findByLabelText('Value (Ct)'), '31.5');
    await draftWritten(db);
    unmount();

    mount(db, ui, `/pools/${poolId}/tests/new`);
    expect(await screen.findByText(RESTORED)).toBeVisible();
    expect(screen.getByLabelText('Value (Ct)')).toHaveValue('31.5');
  });

  it('drops the draft of a pool deleted meanwhile', async () => {
    const { db } = await pulledCollection();
    await storePulledRows(db, Date.now(), 'pool', [
      { id: 30, collection: 9, species: 1, sex: 4, num_count: 40, agency: 1 },
    ]);
    const poolId = (await db.pools.where('serverId').equals(30).first())!.localId;
    const ui = <PoolEditScreen localId={poolId} />;
    const user = userEvent.setup();
    const unmount = mount(db, ui, `/pools/${poolId}/edit`);
    await user.type(await screen.findByLabelText('Comments'), 'Two legs missing');
    await draftWritten(db);
    unmount();

    await deletePool(db, poolId);
    mount(db, ui, `/pools/${poolId}/edit`);
    expect(await screen.findByText('This pool is not on this tablet.')).toBeVisible();
    await waitFor(async () => expect(await drafts(db)).toEqual([]));
  });
});
