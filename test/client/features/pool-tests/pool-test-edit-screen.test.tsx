import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createCollection } from '../../../../src/client/db/create-collection';
import { createPool } from '../../../../src/client/db/create-pool';
import { createPoolTest } from '../../../../src/client/db/create-pool-test';
import { createSite } from '../../../../src/client/db/create-site';
import { PoolTestEditScreen } from '../../../../src/client/features/pool-tests/pool-test-edit-screen';
import { makeCollection, makePool, makeSite } from '../../db/factories';
import { parkRefused, renderScreen, tabletDb } from '../helpers/records';

describe('editing a refused test result', () => {
  it('opens filled with the server’s message beside the field and sends the fix again', async () => {
    const db = await tabletDb();
    const siteId = await createSite(db, makeSite());
    const collectionId = await createCollection(db, siteId, makeCollection());
    const poolId = await createPool(db, collectionId, makePool());
    const testId = await createPoolTest(db, poolId, {
      method: 1,
      target: 1,
      status: 1,
      test_date: '2026-07-16',
      test_agency: 1,
      value: 31.5,
    });
    await parkRefused(db, 'poolTest', testId, [
      { path: 'status', message: 'Result must be Negative for a Ct above 30' },
    ]);
    const user = renderScreen(
      db,
      <PoolTestEditScreen localId={testId} ownAgencyId={1} />,
      `/pool-tests/${testId}/edit`,
    );

    const result = await screen.findByLabelText('Result');
    await waitFor(() =>
      expect(result).toHaveAccessibleDescription('Result must be Negative for a Ct above 30'),
    );
    expect(result).toHaveValue('1');
    expect(screen.getByLabelText('Test date')).toHaveValue('2026-07-16');
    expect(screen.getByLabelText('Value (Ct)')).toHaveValue('31.5');

    await user.selectOptions(result, '2');
    await user.click(screen.getByRole('button', { name: 'Save test result' }));
    await waitFor(() => expect(location.pathname).toBe(`/collections/${collectionId}`));
    const test = (await db.poolTests.get(testId))!;
    expect(test.data).toMatchObject({ status: 2, value: 31.5, test_date: '2026-07-16' });
    expect(test.problem).toBeNull();
    const entry = (await db.outbox.where('localId').equals(testId).first())!;
    expect(entry).toMatchObject({ op: 'create', state: 'pending' });
    expect(entry.payload.status).toBe(2);
  });

  it('still refuses a test dated before its collection', async () => {
    const db = await tabletDb();
    const siteId = await createSite(db, makeSite());
    const collectionId = await createCollection(db, siteId, makeCollection());
    const poolId = await createPool(db, collectionId, makePool());
    const testId = await createPoolTest(db, poolId, {
      method: 1,
      target: 1,
      status: 2,
      test_date: '2026-07-16',
      test_agency: 1,
    });
    const user = renderScreen(db, <PoolTestEditScreen localId={testId} ownAgencyId={1} />);
    const date = await screen.findByLabelText('Test date');
    await user.clear(date);
    await user.type(date, '2026-07-10');
    await user.click(screen.getByRole('button', { name: 'Save test result' }));
    expect(
      await screen.findByText(/The test date cannot be before the collection date/),
    ).toBeInTheDocument();
    expect((await db.poolTests.get(testId))!.data.test_date).toBe('2026-07-16');
  });
});
