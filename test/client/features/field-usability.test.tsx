import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { createCollection } from '../../../src/client/db/create-collection';
import { createSite } from '../../../src/client/db/create-site';
import type { TraplineDb } from '../../../src/client/db/database';
import { DbContext } from '../../../src/client/db/db-context';
import { CollectionFormScreen } from '../../../src/client/features/collections/collection-form-screen';
import { MakePoolsScreen } from '../../../src/client/features/pools/make-pools-screen';
import { makeCollection, makeSite } from '../db/factories';
import { renderScreen, tabletDb } from './helpers/records';

/**
 * What a technician in a truck trips on in the record forms: the keyboard's Enter/Go key in a
 * count, a Save that seems to do nothing, a stray tap on a remove button.
 */

/** Lets a save that was (wrongly) started reach the tablet's database. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

async function siteOnTablet(db: TraplineDb) {
  return createSite(db, makeSite({ code: '104233', name: 'Putah Creek N' }));
}

describe('the keyboard’s Enter in a number field', () => {
  it('moves to the next field of a collection and saves nothing half-typed', async () => {
    const db = await tabletDb();
    const siteId = await siteOnTablet(db);
    const user = renderScreen(db, <CollectionFormScreen />, `/collections/new?site=${siteId}`);
    await user.selectOptions(await screen.findByLabelText('Trap type'), '2');
    await user.click(screen.getByLabelText('Number of traps'));
    await user.keyboard('{Enter}');
    expect(screen.getByLabelText('Trap nights')).toHaveFocus();

    // Row 1 of two look-alike rows (same species, two sexes): Enter after its count.
    await user.click(screen.getByRole('button', { name: 'Add Cx tarsalis' }));
    await user.type(screen.getByLabelText('Count (row 1)'), '37{Enter}');
    await settle();
    expect(await db.collections.count()).toBe(0);
    expect(location.pathname).toBe('/collections/new');
    expect(screen.getByLabelText('Count (row 1)')).not.toHaveFocus();
    expect(screen.getByLabelText('Count (row 1)')).toHaveValue('37');
    expect(screen.getByLabelText('Count (row 1)')).toHaveAttribute('enterkeyhint', 'next');
  });

  it('in a pool count does not save the pools while the next one is still to be changed', async () => {
    const db = await tabletDb();
    const siteId = await siteOnTablet(db);
    const collectionId = await createCollection(
      db,
      siteId,
      makeCollection({ arthropods: [{ species: 1, sex: 1, num_count: 100 }] }),
    );
    const user = renderScreen(db, <MakePoolsScreen collectionLocalId={collectionId} />);
    const first = await screen.findByLabelText('Pool 1 count');
    await user.clear(first);
    await user.type(first, '45{Enter}');
    await settle();
    expect(await db.pools.count()).toBe(0);
    expect(screen.getByLabelText('Pool 2 count')).toHaveFocus();
  });
});

describe('a Save with a problem', () => {
  it('takes the technician to the site picker when no site was chosen, typing kept', async () => {
    const db = await tabletDb();
    await siteOnTablet(db);
    const user = renderScreen(db, <CollectionFormScreen />, '/collections/new');
    await user.selectOptions(await screen.findByLabelText('Trap type'), '2');
    await user.click(screen.getByRole('button', { name: 'Add Cx tarsalis' }));
    await user.type(screen.getByLabelText('Count (row 1)'), '12');
    await user.click(screen.getByRole('button', { name: 'Save collection' }));
    expect(await screen.findByText('Choose a site')).toBeInTheDocument();
    const search = screen.getByLabelText('Find a site');
    await waitFor(() => expect(search).toHaveFocus());
    expect(search).toHaveAttribute('aria-invalid', 'true');
    expect(search).toHaveAccessibleDescription('Choose a site');
    expect(screen.getByLabelText('Count (row 1)')).toHaveValue('12');
    expect(await db.collections.count()).toBe(0);
  });

  it('takes the technician to the first bad field on screen, not the first one registered', async () => {
    const db = await tabletDb();
    const siteId = await siteOnTablet(db);
    const user = renderScreen(db, <CollectionFormScreen />, `/collections/new?site=${siteId}`);
    await user.selectOptions(await screen.findByLabelText('Trap type'), '2');
    // "Identified by" was on screen first; the row added later sits above it.
    await user.type(screen.getByLabelText('Identified by'), 'x'.repeat(201));
    await user.click(screen.getByRole('button', { name: 'Add row' }));
    await user.type(screen.getByLabelText('Count (row 1)'), '12');
    await user.click(screen.getByRole('button', { name: 'Save collection' }));
    expect(await screen.findByText('Species is required')).toBeInTheDocument();
    await settle();
    expect(screen.getByLabelText('Species (row 1)')).toHaveFocus();
  });
});

describe('a stray tap on Remove pool', () => {
  it('costs nothing: Undo puts the pool back with the count typed in it', async () => {
    const db = await tabletDb();
    const siteId = await siteOnTablet(db);
    const collectionId = await createCollection(
      db,
      siteId,
      makeCollection({ arthropods: [{ species: 1, sex: 1, num_count: 100 }] }),
    );
    const user = renderScreen(db, <MakePoolsScreen collectionLocalId={collectionId} />);
    const first = await screen.findByLabelText('Pool 1 count');
    await user.clear(first);
    await user.type(first, '45');
    await user.click(screen.getByRole('button', { name: 'Remove pool 1' }));
    expect(screen.queryByLabelText('Pool 2 count')).not.toBeInTheDocument();
    const note = screen.getByRole('status');
    expect(note).toHaveTextContent('Pool 1 removed');
    // Where the pool was (the list's top), not under the last pool.
    expect(
      note.compareDocumentPosition(screen.getByLabelText('Pool 1 count')) &
        Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
    await user.click(within(note).getByRole('button', { name: 'Undo' }));
    expect(screen.getByLabelText('Pool 1 count')).toHaveValue('45');
    expect(screen.getByLabelText('Pool 2 count')).toHaveValue('50');
    await user.click(screen.getByRole('button', { name: 'Save pools' }));
    await waitFor(async () => expect(await db.pools.count()).toBe(2));
    const counts = (await db.pools.toArray()).map((p) => p.data.num_count).sort();
    expect(counts).toEqual([45, 50]);
  });
});

describe('a stray tap on Discard draft', () => {
  it('costs nothing: Undo brings back the typing restored after the app closed', async () => {
    const db = await tabletDb();
    const siteId = await siteOnTablet(db);
    const at = `/collections/new?site=${siteId}`;
    const mount = () => {
      history.replaceState(null, '', at);
      return render(
        <DbContext.Provider value={db}>
          <CollectionFormScreen />
        </DbContext.Provider>,
      ).unmount;
    };
    const user = userEvent.setup();
    let unmount = mount();
    await user.selectOptions(await screen.findByLabelText('Trap type'), '2');
    // Look-alike rows: one species, two sexes, equal counts.
    for (const [n, sex] of [
      [1, '4'],
      [2, '2'],
    ] as const) {
      await user.click(screen.getByRole('button', { name: 'Add row' }));
      await user.selectOptions(screen.getByLabelText(`Species (row ${n})`), '1');
      await user.selectOptions(screen.getByLabelText(`Sex (row ${n})`), sex);
      await user.type(screen.getByLabelText(`Count (row ${n})`), '25');
    }
    await waitFor(
      async () => expect(await db.meta.where('key').startsWith('draft:').count()).toBe(1),
      {
        timeout: 3000,
      },
    );
    unmount();

    // The app closed; opened again, the typing is back. A gloved thumb taps Discard draft.
    unmount = mount();
    await screen.findByText(/Restored what you typed/);
    await waitFor(() => expect(screen.getByLabelText('Count (row 2)')).toHaveValue('25'));
    await user.click(screen.getByRole('button', { name: 'Discard draft' }));
    expect(screen.queryByLabelText('Count (row 1)')).not.toBeInTheDocument();
    const note = screen.getByText(/Draft discarded/).closest('[role="status"]') as HTMLElement;
    await user.click(within(note).getByRole('button', { name: 'Undo' }));
    expect(screen.getByLabelText('Count (row 1)')).toHaveValue('25');
    expect(screen.getByLabelText('Sex (row 2)')).toHaveValue('2');
    expect(screen.getByLabelText('Trap type')).toHaveValue('2');
    expect(screen.getByTestId('abundance-total')).toHaveTextContent('50');

    // And the draft is kept again: the app closing once more loses nothing.
    await waitFor(
      async () => expect(await db.meta.where('key').startsWith('draft:').count()).toBe(1),
      {
        timeout: 3000,
      },
    );
    unmount();
    mount();
    await screen.findByText(/Restored what you typed/);
    await waitFor(() => expect(screen.getByLabelText('Count (row 2)')).toHaveValue('25'));

    // Typing after a Discard is a new start: no Undo left to overwrite it.
    await user.click(screen.getByRole('button', { name: 'Discard draft' }));
    expect(screen.getByRole('button', { name: 'Undo' })).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('Trap type'), '1');
    expect(screen.queryByText(/Draft discarded/)).not.toBeInTheDocument();
    expect(screen.getByLabelText('Trap type')).toHaveValue('1');
    expect(screen.queryByLabelText('Count (row 1)')).not.toBeInTheDocument();
  }, 20_000);
});
