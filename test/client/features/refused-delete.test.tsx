import { render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { DbContext } from '../../../src/client/db/db-context';
import { deleteCollection } from '../../../src/client/db/delete-collection';
import { CollectionFormScreen } from '../../../src/client/features/collections/collection-form-screen';
import { SyncEngineProvider } from '../../../src/client/features/sync-status';
import { ParkedEntries } from '../../../src/client/features/sync-status/parked-entries';
import { collection, storeSynced } from '../sync/helpers/outbox-factory';
import { drain, setupEngine } from '../sync/helpers/setup-engine';
import { LOOKUPS } from '../lookups-fixture';

/**
 * A technician deletes a collection the server has; the server refuses (only managers delete,
 * contract §7) and the delete is parked. The collection stays marked deleted on the tablet.
 */
async function refusedDelete() {
  const { db, bff, engine } = setupEngine();
  await db.lookups.put({ key: 'lookups', etag: null, document: LOOKUPS, storedAt: Date.now() });
  const data = collection();
  const localId = await storeSynced(
    db,
    'collection',
    { id: 9, updated: '2026-07-14T14:00:00.000Z', ...data },
    data,
  );
  bff.fault = (req) =>
    req.method === 'DELETE'
      ? { status: 403, code: 'forbidden', message: 'Only a manager can delete a collection' }
      : null;
  expect(await deleteCollection(db, localId)).toBe('queued');
  engine.start();
  await drain(engine);
  expect((await db.outbox.toArray()).map((e) => [e.op, e.state])).toEqual([['delete', 'parked']]);
  return { db, engine, localId };
}

describe('a deletion the server refused', () => {
  it('offers Discard, not a Fix that opens a form for a record being deleted', async () => {
    const { engine } = await refusedDelete();
    const onFix = vi.fn();
    render(
      <SyncEngineProvider engine={engine}>
        <ParkedEntries onFix={onFix} />
      </SyncEngineProvider>,
    );
    const refused = await screen.findByText('Only a manager can delete a collection');
    const item = refused.closest('li')!;
    expect(within(item).getByRole('button', { name: 'Discard' })).toBeInTheDocument();
    expect(within(item).queryByRole('button', { name: 'Fix' })).not.toBeInTheDocument();
  });

  it('shows no edit form for the deleted collection, whose changes could never be saved', async () => {
    const { db, localId } = await refusedDelete();
    history.replaceState(null, '', `/collections/${localId}/edit`);
    render(
      <DbContext.Provider value={db}>
        <CollectionFormScreen localId={localId} />
      </DbContext.Provider>,
    );
    expect(await screen.findByText(/This collection was deleted/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save collection' })).not.toBeInTheDocument();
  });
});
