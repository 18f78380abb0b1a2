import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { TraplineDb } from '../../../src/client/db/database';
import { CollectionFormScreen } from '../../../src/client/features/collections/collection-form-screen';
import { MakePoolsScreen } from '../../../src/client/features/pools/make-pools-screen';
import { PoolTestScreen } from '../../../src/client/features/pool-tests/pool-test-screen';
import { storePulledRows } from '../../../src/client/sync/store-pulled-rows';
import { FormProblems } from '../../../src/client/ui/form/form-problems';
import type { Refusal } from '../../../src/client/ui/form/save-error';
import { keepOpenDrafts } from '../../../src/client/ui/form/open-drafts';
import type { DraftStore } from '../../../src/client/lib/drafts/draft-keeper';
import { useRecordForm } from '../../../src/client/ui/form/use-record-form';
import {
  busyDraftQueue,
  draftQueueDrained,
  drafts,
  killAndReopen,
  mount,
} from './helpers/draft-queue';
import { tabletDb, pulledSite } from './helpers/records';

// Typing that was saved as a record is never offered again as unsaved ("Restored what you
// typed"), whatever happens between the record's commit and its draft's removal: the tablet busy
// (the drafts of every form are read and written one after another), the tab killed, the form's
// draft keeper re-created while it saves. Each record here is the twin of one already on the
// tablet (same pool, same test; same site and day), so a duplicate would pass unnoticed.

const SLOW = { timeout: 20_000 };
const RESTORED = /Restored what you typed on .+ before the app closed\./;
/** A save waits a moment for the draft writes before it, even on a busy tablet. */
const WAIT = { timeout: 5000 };

const SITE = pulledSite();
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

/** A site, its collection, a pool of it and the pool's RT-PCR WNV test, pulled (`pooled`). */
async function pulledPool(pooled = true) {
  const db = await tabletDb();
  await storePulledRows(db, Date.now(), 'site', [SITE]);
  await storePulledRows(db, Date.now(), 'collection', [COLLECTION]);
  if (pooled)
    await storePulledRows(db, Date.now(), 'pool', [
      { id: 30, collection: 9, species: 1, sex: 4, num_count: 40, agency: 1 },
    ]);
  if (pooled)
    await storePulledRows(db, Date.now(), 'poolTest', [
      {
        id: 70,
        pool: 30,
        method: 1,
        target: 1,
        status: 1,
        test_date: '2026-07-16T00:00:00.000Z',
        test_agency: 1,
      },
    ]);
  const siteId = (await db.sites.where('serverId').equals(501).first())!.localId;
  const collectionId = (await db.collections.where('serverId').equals(9).first())!.localId;
  const poolId = (await db.pools.where('serverId').equals(30).first())?.localId ?? '';
  return { db, siteId, collectionId, poolId };
}

describe('a saved record’s draft', SLOW, () => {
  it('is not offered again after the tab died between the pool test’s save and its draft’s removal', async () => {
    const { db, poolId } = await pulledPool();
    const at = `/pools/${poolId}/tests/new`;
    const ui = <PoolTestScreen poolLocalId={poolId} ownAgencyId={1} />;
    const user = userEvent.setup();
    const view = mount(db, ui, at);
    await user.selectOptions(await view.findByLabelText('Test method'), '1');
    await user.selectOptions(view.getByLabelText('Target'), '1');
    await user.selectOptions(view.getByLabelText('Result'), '1');
    await waitFor(async () => expect(await drafts(db)).toHaveLength(1));
    const busy = busyDraftQueue();
    await user.click(view.getByRole('button', { name: 'Save test result' }));
    await waitFor(async () => expect(await db.poolTests.count()).toBe(2), WAIT);
    const reopened = await killAndReopen(db, busy.release);

    mount(reopened, ui, at);
    await screen.findByLabelText('Test method');
    await draftQueueDrained();
    await act(async () => {});
    expect(screen.queryByText(RESTORED)).not.toBeInTheDocument();
    expect(await drafts(reopened)).toEqual([]);
    expect(screen.getByLabelText('Test method')).toHaveValue('');
    reopened.close();
  });

  it('is not offered again after the tab died between the new collection’s save and its draft’s removal', async () => {
    const { db, siteId } = await pulledPool();
    const at = `/collections/new?site=${siteId}`;
    const user = userEvent.setup();
    const view = mount(db, <CollectionFormScreen />, at);
    await user.selectOptions(await view.findByLabelText('Trap type'), '2');
    await waitFor(async () => expect(await drafts(db)).toHaveLength(1));
    const busy = busyDraftQueue();
    await user.click(view.getByRole('button', { name: 'Save collection' }));
    await waitFor(async () => expect(await db.collections.count()).toBe(2), WAIT);
    const reopened = await killAndReopen(db, busy.release);

    mount(reopened, <CollectionFormScreen />, at);
    await screen.findByLabelText('Trap type');
    await draftQueueDrained();
    await act(async () => {});
    expect(screen.queryByText(RESTORED)).not.toBeInTheDocument();
    expect(await drafts(reopened)).toEqual([]);
    reopened.close();
  });

  it('is not offered again after the tab died between the pools’ save and their draft’s removal', async () => {
    const { db, collectionId } = await pulledPool(false);
    const at = `/collections/${collectionId}/pools`;
    const ui = <MakePoolsScreen collectionLocalId={collectionId} />;
    const user = userEvent.setup();
    const view = mount(db, ui, at);
    // Two look-alike pools proposed (40 females, 40 males): the first one is made now.
    await view.findByLabelText('Pool 2 count');
    await user.click(view.getByRole('button', { name: 'Remove pool 2' }));
    await waitFor(async () => expect(await drafts(db)).toHaveLength(1));
    const before = await db.pools.count();
    const busy = busyDraftQueue();
    await user.click(view.getByRole('button', { name: 'Save pools' }));
    await waitFor(async () => expect(await db.pools.count()).toBeGreaterThan(before), WAIT);
    const reopened = await killAndReopen(db, busy.release);

    mount(reopened, ui, at);
    await screen.findByRole('heading', { name: 'Make pools' });
    await draftQueueDrained();
    await act(async () => {});
    expect(screen.queryByText(RESTORED)).not.toBeInTheDocument();
    expect(await drafts(reopened)).toEqual([]);
    reopened.close();
  });

  it('is not written after its record when the write waited behind the busy tablet', async () => {
    const { db, poolId } = await pulledPool();
    const key = `draft:pool-test:new:${poolId}`;
    const view = mount(
      db,
      <PoolTestScreen poolLocalId={poolId} ownAgencyId={1} />,
      `/pools/${poolId}/tests/new`,
    );
    const user = userEvent.setup();
    await user.type(await view.findByLabelText('Value (Ct)'), '3');
    await waitFor(async () => expect(await drafts(db)).toHaveLength(1));
    // What reached the database, in order: the test record, and every write of its draft.
    const written: string[] = [];
    db.poolTests.hook('creating', () => {
      written.push('record');
    });
    db.meta.hook('creating', (_k, row) => {
      if (row.key === key) written.push('draft');
    });
    db.meta.hook('updating', (_m, k) => {
      if (k === key) written.push('draft');
    });
    const busy = busyDraftQueue();
    // The RT-PCR WNV result typed and saved at once: its draft waits behind the busy queue.
    await user.clear(view.getByLabelText('Value (Ct)'));
    await user.type(view.getByLabelText('Value (Ct)'), '31.5');
    await user.selectOptions(view.getByLabelText('Test method'), '1');
    await user.selectOptions(view.getByLabelText('Target'), '1');
    await user.selectOptions(view.getByLabelText('Result'), '1');
    await user.click(view.getByRole('button', { name: 'Save test result' }));
    await waitFor(async () => expect(await db.poolTests.count()).toBe(2), WAIT);
    busy.release();
    await draftQueueDrained();
    // A draft written after its record is offered as unsaved if the tab dies before its removal.
    expect(written.slice(written.indexOf('record'))).toEqual(['record']);
    expect(await drafts(db)).toEqual([]);
  });
});

/** A record form as the screens make it, whose draft store and save the test holds. */
function Harness({
  store,
  save,
}: {
  store: DraftStore;
  save: (values: { comments: string }) => Promise<void>;
}) {
  const { form, submitWith, draft, saveError } = useRecordForm<{ comments: string }>({
    id: 'harness-form',
    schema: HARNESS_SCHEMA,
    labels: {},
    defaultValues: { comments: '' },
    problem: null,
    isRefusal: (_e: unknown): _e is Refusal => false,
    draft: { store, form: 'pool-test', record: null, parent: 'pool-1' },
  });
  return (
    <form onSubmit={submitWith(save)} aria-label="Harness">
      <FormProblems problem={null} saveError={saveError} draft={draft} />
      <input aria-label="Comments" {...form.register('comments')} />
      <button type="submit">Save</button>
    </form>
  );
}
const HARNESS_SCHEMA = z.object({ comments: z.string() });

/** db.meta behind a new object: the form's draft keeper is made anew each time it changes. */
const storeOf = (db: TraplineDb): DraftStore => ({
  get: (k) => db.meta.get(k),
  put: (row) => db.meta.put(row),
  delete: (k) => db.meta.delete(k),
  where: (i) => db.meta.where(i),
});

describe('a form whose draft keeper is made anew while it saves', SLOW, () => {
  it('neither restores nor writes again the typing it saved', async () => {
    const db = await tabletDb();
    let finish = () => {};
    const save = () => new Promise<void>((resolve) => (finish = resolve));
    const user = userEvent.setup();
    const view = render(<Harness store={storeOf(db)} save={save} />);
    await user.type(screen.getByLabelText('Comments'), 'Pool from the gate trap');
    await waitFor(async () => expect(await drafts(db)).toHaveLength(1));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    // While it saves, the keeper is made anew (an input of its useMemo changed).
    view.rerender(<Harness store={storeOf(db)} save={save} />);
    await draftQueueDrained();
    expect(screen.queryByText(RESTORED)).not.toBeInTheDocument();
    await act(async () => finish());
    await draftQueueDrained();
    // A leave question answered "Keep editing" afterwards writes the open forms' drafts.
    act(() => keepOpenDrafts());
    await draftQueueDrained();
    expect(await drafts(db)).toEqual([]);
    expect(screen.queryByText(RESTORED)).not.toBeInTheDocument();
  });

  it('keeps the typing of a save under way, and after a failed save', async () => {
    const db = await tabletDb();
    let fail = (_e: Error) => {};
    const save = () => new Promise<void>((_resolve, reject) => (fail = reject));
    const user = userEvent.setup();
    render(<Harness store={storeOf(db)} save={save} />);
    // Saved at once, before typing rests: the draft is written before the record.
    await user.type(screen.getByLabelText('Comments'), 'Pool from the gate trap');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(async () =>
      expect((await drafts(db)).map((d) => d.value)).toEqual([
        expect.objectContaining({ values: { comments: 'Pool from the gate trap' } }),
      ]),
    );
    await act(async () => fail(new Error('QuotaExceededError')));
    await user.type(screen.getByLabelText('Comments'), ', twin trap');
    await waitFor(async () =>
      expect((await drafts(db)).map((d) => d.value)).toEqual([
        expect.objectContaining({ values: { comments: 'Pool from the gate trap, twin trap' } }),
      ]),
    );
  });
});
