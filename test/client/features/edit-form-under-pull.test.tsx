import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CollectionDetailScreen } from '../../../src/client/features/collections/collection-detail-screen';
import { CollectionFormScreen } from '../../../src/client/features/collections/collection-form-screen';
import { PoolTestEditScreen } from '../../../src/client/features/pool-tests/pool-test-edit-screen';
import { SiteFormScreen } from '../../../src/client/features/sites/site-form-screen';
import { storePulledRows } from '../../../src/client/sync/store-pulled-rows';
import { renderScreen, tabletDb, pulledSite } from './helpers/records';

/** A site as the service lists it (a pull stores it like this). */
const serverSite = (over: Record<string, unknown> = {}) =>
  pulledSite({ add_date: '2026-07-01T10:00:00.000Z', ...over });

describe('an edit form open while a pull brings a newer version of its record', () => {
  it('saves only what the technician changed: the newer server fields are kept, not reverted', async () => {
    const db = await tabletDb();
    await storePulledRows(db, Date.now(), 'site', [serverSite()]);
    const localId = (await db.sites.where('serverId').equals(501).first())!.localId;
    const user = renderScreen(db, <SiteFormScreen localId={localId} />, `/sites/${localId}/edit`);
    const name = await screen.findByLabelText('Site name');

    // While the form is open, the tablet comes online and pulls: the office added a gate code.
    await storePulledRows(db, Date.now(), 'site', [
      serverSite({ comments: 'Gate code 4411', updated: '2026-07-02T08:00:00.000Z' }),
    ]);
    await waitFor(async () =>
      expect((await db.sites.get(localId))!.data.comments).toBe('Gate code 4411'),
    );

    await user.clear(name);
    await user.type(name, 'Putah Creek North');
    await user.click(screen.getByRole('button', { name: 'Save site' }));
    await waitFor(() => expect(location.pathname).toBe(`/sites/${localId}`));

    const row = (await db.sites.get(localId))!;
    expect(row.data).toMatchObject({ name: 'Putah Creek North', comments: 'Gate code 4411' });
    const [entry] = await db.outbox.where('localId').equals(localId).toArray();
    expect(entry).toMatchObject({ op: 'update', payload: { name: 'Putah Creek North' } });
    expect(entry.payload).not.toHaveProperty('comments');
  });
});

describe('a collection form open while a pull brings a newer version of the collection', () => {
  it('keeps the office’s new comment and sends only the trap nights typed', async () => {
    const db = await tabletDb();
    await storePulledRows(db, Date.now(), 'site', [serverSite()]);
    const collection = {
      id: 9,
      collection_date: '2026-07-14T13:30:00.000Z',
      num_trap: 1,
      trap: 2,
      trap_nights: 1,
      site: 501,
      location: {
        shape: { type: 'Point', coordinates: [-121.49, 38.58] },
        coordinate_precision: 1,
      },
      agency: 1,
      lures: [],
      arthropods: [{ id: 5, species: 1, sex: 1, num_count: 120 }],
      updated: '2026-07-14T14:00:00.000Z',
    };
    await storePulledRows(db, Date.now(), 'collection', [collection]);
    const localId = (await db.collections.where('serverId').equals(9).first())!.localId;
    const user = renderScreen(
      db,
      <CollectionFormScreen localId={localId} />,
      `/collections/${localId}/edit`,
    );
    const nights = await screen.findByLabelText('Trap nights');

    await storePulledRows(db, Date.now(), 'collection', [
      { ...collection, comments: 'Trap moved 5 m north', updated: '2026-07-15T08:00:00.000Z' },
    ]);
    await waitFor(async () =>
      expect((await db.collections.get(localId))!.data.comments).toBe('Trap moved 5 m north'),
    );

    await user.clear(nights);
    await user.type(nights, '2');
    await user.click(screen.getByRole('button', { name: 'Save collection' }));
    await waitFor(() => expect(location.pathname).toBe(`/collections/${localId}`));

    const row = (await db.collections.get(localId))!;
    expect(row.data).toMatchObject({ trap_nights: 2, comments: 'Trap moved 5 m north' });
    const [entry] = await db.outbox.where('localId').equals(localId).toArray();
    expect(entry).toMatchObject({ op: 'update', payload: { trap_nights: 2 } });
    expect(entry.payload).not.toHaveProperty('comments');
  });
});

/** A site, collection, pool and test result as a pull stores them; the test's Ct value as given. */
async function pulledTestResult(value: unknown) {
  const db = await tabletDb();
  await storePulledRows(db, Date.now(), 'site', [serverSite()]);
  await storePulledRows(db, Date.now(), 'collection', [
    {
      id: 9,
      collection_date: '2026-07-14T13:30:00.000Z',
      num_trap: 1,
      trap: 2,
      trap_nights: 1,
      site: 501,
      agency: 1,
      arthropods: [{ id: 5, species: 1, sex: 1, num_count: 120 }],
      updated: '2026-07-14T14:00:00.000Z',
    },
  ]);
  await storePulledRows(db, Date.now(), 'pool', [
    { id: 30, collection: 9, species: 1, sex: 1, num_count: 50, agency: 1 },
  ]);
  await storePulledRows(db, Date.now(), 'poolTest', [
    {
      id: 70,
      pool: 30,
      method: 1,
      target: 1,
      status: 1,
      test_date: '2026-07-16T00:00:00.000Z',
      test_agency: 1,
      value,
      agency: 1,
      updated: '2026-07-17T00:00:00.000Z',
    },
  ]);
  const collectionId = (await db.collections.where('serverId').equals(9).first())!.localId;
  const testId = (await db.poolTests.where('serverId').equals(70).first())!.localId;
  return { db, collectionId, testId };
}

// The contract tolerates a numeric string as a test's value (schemas/pool-test.ts `value`).
describe('a test result pulled from an upstream that sends its Ct value as text', () => {
  it('shows the Ct value with the pool on the collection', async () => {
    const { db, collectionId } = await pulledTestResult('31.5');
    renderScreen(
      db,
      <CollectionDetailScreen localId={collectionId} />,
      `/collections/${collectionId}`,
    );
    expect(await screen.findByText(/\(Ct 31\.5\)/)).toBeInTheDocument();
  });

  it('opens with the value as a number and saves an edit of another field', async () => {
    const { db, testId } = await pulledTestResult('31.5');
    const user = renderScreen(
      db,
      <PoolTestEditScreen localId={testId} ownAgencyId={1} />,
      `/pool-tests/${testId}/edit`,
    );
    const result = await screen.findByLabelText('Result');
    expect(screen.getByLabelText('Value (Ct)')).toHaveValue('31.5');
    await user.selectOptions(result, '2');
    await user.click(screen.getByRole('button', { name: 'Save test result' }));

    await waitFor(() => expect(location.pathname).not.toContain('/edit'));
    expect(screen.queryByText(/must be a number/)).not.toBeInTheDocument();
    const [entry] = await db.outbox.where('localId').equals(testId).toArray();
    expect(entry).toMatchObject({ op: 'update', payload: { status: 2 } });
    expect(entry.payload).not.toHaveProperty('value');
  });
});
