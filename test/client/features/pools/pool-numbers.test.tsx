// West of UTC, as the district's tablets are.
process.env.TZ = 'America/Los_Angeles';

import { cleanup, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createCollection } from '../../../../src/client/db/create-collection';
import { createPool } from '../../../../src/client/db/create-pool';
import { createPoolTest } from '../../../../src/client/db/create-pool-test';
import { createSite } from '../../../../src/client/db/create-site';
import type { TraplineDb } from '../../../../src/client/db/database';
import { CollectionDetailScreen } from '../../../../src/client/features/collections/collection-detail-screen';
import { PoolTestEditScreen } from '../../../../src/client/features/pool-tests/pool-test-edit-screen';
import { PoolTestScreen } from '../../../../src/client/features/pool-tests/pool-test-screen';
import { MakePoolsScreen } from '../../../../src/client/features/pools/make-pools-screen';
import { PoolEditScreen } from '../../../../src/client/features/pools/pool-edit-screen';
import type { Collection, Pool } from '../../../../src/shared';
import { makeCollection, makePool, makeSite } from '../../db/factories';
import { renderScreen, tabletDb } from '../helpers/records';

// Issue 35 (4): "A pool shows 'Cx tarsalis F-Mixed × 25'; the server gave it pool_num 82 (seen
// only in the export). The technician cannot see what to write on the vial, and two equal pools
// look the same. The collection heading is a date."

/** A collection of 50 Cx tarsalis female with two equal pools of 25, all still on the tablet. */
async function twoEqualPools(db: TraplineDb) {
  const siteId = await createSite(db, makeSite());
  const collectionId = await createCollection(
    db,
    siteId,
    makeCollection({ arthropods: [{ species: 1, sex: 1, num_count: 50 }] }),
  );
  const first = await createPool(db, collectionId, makePool({ num_count: 25 }));
  const second = await createPool(db, collectionId, makePool({ num_count: 25 }));
  return { collectionId, pools: [first, second] };
}

/** What the sync engine stores when the server acknowledges a create: its answer. */
async function acknowledged(
  db: TraplineDb,
  table: 'collections' | 'pools',
  localId: string,
  serverId: number,
  answer: Record<string, unknown>,
) {
  await db.table(table).update(localId, {
    serverId,
    syncState: 'synced',
    server: { id: serverId, ...answer } as unknown as Pool & Collection,
  });
}

const textOf = (el: Element) => el.textContent?.replace(/\s+/g, ' ').trim();

/** The line under a screen's heading that names the record, once it says `what`. */
const recordTitle = (what: RegExp) =>
  screen.findByText(
    (_, el) => el?.matches('p.record-title') === true && what.test(el.textContent ?? ''),
  );

describe('pool and collection numbers', () => {
  it('marks a collection and its pools as not yet numbered, then shows the server’s numbers live', async () => {
    const db = await tabletDb();
    const { collectionId, pools } = await twoEqualPools(db);
    renderScreen(db, <CollectionDetailScreen localId={collectionId} />);

    const heading = await screen.findByRole('heading', { level: 1 });
    expect(textOf(heading)).toBe('Collection not yet numbered · Jul 14, 2026, 06:30 AM');
    const list = await screen.findByRole('list', { name: 'Pools' });
    const titles = () => [...list.querySelectorAll('strong')].map(textOf);
    // Equal pools differ before they sync too: by their place, as their links name them.
    expect(titles()).toEqual([
      'New pool 1 not yet numbered · Cx tarsalis female × 25',
      'New pool 2 not yet numbered · Cx tarsalis female × 25',
    ]);
    expect(screen.getByRole('link', { name: 'Edit pool 2' })).toHaveAttribute(
      'href',
      `/pools/${pools[1]}/edit`,
    );

    await acknowledged(db, 'collections', collectionId, 901, { collection_num: 117 });
    await acknowledged(db, 'pools', pools[0], 5001, { pool_num: 82 });
    await acknowledged(db, 'pools', pools[1], 5002, { pool_num: 83 });

    await waitFor(() =>
      expect(textOf(screen.getByRole('heading', { level: 1 }))).toBe(
        'Collection 117 · Jul 14, 2026, 06:30 AM',
      ),
    );
    await waitFor(() =>
      expect(titles()).toEqual([
        'Pool 82 · Cx tarsalis female × 25',
        'Pool 83 · Cx tarsalis female × 25',
      ]),
    );
    // The links say which pool they edit the same way.
    expect(screen.getByRole('link', { name: 'Edit pool 83' })).toHaveAttribute(
      'href',
      `/pools/${pools[1]}/edit`,
    );
  });

  it('heads the pool and test screens with the pool’s number and its collection’s', async () => {
    const db = await tabletDb();
    const { collectionId, pools } = await twoEqualPools(db);
    await acknowledged(db, 'collections', collectionId, 902, { collection_num: 118 });
    await acknowledged(db, 'pools', pools[1], 5003, { pool_num: 84 });
    const testId = await createPoolTest(db, pools[1], {
      method: 1,
      target: 1,
      status: 2,
      test_date: '2026-07-16',
      test_agency: 1,
    });

    const screens = [
      <PoolEditScreen key="edit" localId={pools[1]} />,
      <PoolTestScreen key="new" poolLocalId={pools[1]} ownAgencyId={1} />,
      <PoolTestEditScreen key="test" localId={testId} ownAgencyId={1} />,
    ];
    for (const ui of screens) {
      renderScreen(db, ui);
      const title = await recordTitle(/Pool 84/);
      expect(textOf(title)).toBe(
        'Pool 84 · Cx tarsalis female × 25 from Collection 118 · Jul 14, 2026, 06:30 AM',
      );
      cleanup();
    }

    renderScreen(db, <PoolTestScreen poolLocalId={pools[0]} ownAgencyId={1} />);
    const unsent = await recordTitle(/not yet numbered/);
    expect(textOf(unsent)).toBe(
      'Pool not yet numbered · Cx tarsalis female × 25 from Collection 118 · Jul 14, 2026, 06:30 AM',
    );
  });

  it('names the collection on Make pools, and says where the pools’ numbers come from', async () => {
    const db = await tabletDb();
    const siteId = await createSite(db, makeSite());
    const collectionId = await createCollection(db, siteId, makeCollection());
    await acknowledged(db, 'collections', collectionId, 903, { collection_num: 119 });
    renderScreen(db, <MakePoolsScreen collectionLocalId={collectionId} />);
    expect(textOf(await recordTitle(/Collection 119/))).toBe(
      'Collection 119 · Jul 14, 2026, 06:30 AM',
    );
    expect(
      screen.getByText(/Each pool gets its number from the office when it syncs/),
    ).toBeInTheDocument();
  });
});
