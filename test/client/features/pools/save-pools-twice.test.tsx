import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createCollection } from '../../../../src/client/db/create-collection';
import { createSite } from '../../../../src/client/db/create-site';
import { MakePoolsScreen } from '../../../../src/client/features/pools/make-pools-screen';
import { makeCollection, makeSite } from '../../db/factories';
import { renderScreen, tabletDb } from '../helpers/records';

describe('make pools, Save tapped twice in a row (a gloved double tap)', () => {
  it('saves the proposed pools once: the count is never pooled twice', async () => {
    const db = await tabletDb();
    const siteId = await createSite(db, makeSite());
    // 120 counted: pools of 50, 50 and 20.
    const collectionId = await createCollection(db, siteId, makeCollection());
    renderScreen(db, <MakePoolsScreen collectionLocalId={collectionId} />);
    const save = await screen.findByRole('button', { name: 'Save pools' });
    fireEvent.click(save);
    fireEvent.click(save);
    await waitFor(async () => expect(await db.pools.count()).toBeGreaterThan(0));
    await new Promise((r) => setTimeout(r, 200));
    const pools = await db.pools.toArray();
    expect(pools.map((p) => p.data.num_count).sort()).toEqual([20, 50, 50]);
    expect((await db.outbox.toArray()).filter((e) => e.entity === 'pool')).toHaveLength(3);
  });
});
