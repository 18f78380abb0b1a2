import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { describe, expect, it } from 'vitest';
import type { TraplineDb } from '../../../src/client/db/database';
import { DbContext } from '../../../src/client/db/db-context';
import { PoolEditScreen } from '../../../src/client/features/pools/pool-edit-screen';
import { storePulledRows } from '../../../src/client/sync/store-pulled-rows';
import { tabletDb, pulledSite } from './helpers/records';

/**
 * An edit draft belongs to its record (its localId), wherever the record is: a pull that moves
 * the pool to the twin trap's collection (same site, day and trap type), or a fold that gives a
 * pool's collection another localId (absorbDuplicate), changes the pool's parentLocalId, and the
 * technician's typing must still come back when the pool's form opens again.
 */
const SLOW = { timeout: 20_000 };
const RESTORED = /Restored what you typed on .+ before the app closed\./;

const SITE = pulledSite();
/** Two CO2 traps at one site on one night: look-alike collections. */
const twin = (id: number) => ({
  id,
  collection_date: '2026-07-14T13:30:00.000Z',
  num_trap: 1,
  trap: 2,
  trap_nights: 1,
  site: 501,
  agency: 1,
  lures: [],
  arthropods: [{ id: id * 10, species: 1, sex: 4, num_count: 40 }],
  updated: '2026-07-14T14:00:00.000Z',
});
const POOL = {
  id: 30,
  collection: 9,
  species: 1,
  sex: 4,
  num_count: 40,
  agency: 1,
  updated: '2026-07-14T15:00:00.000Z',
};

function mount(db: TraplineDb, ui: ReactElement, at: string) {
  history.replaceState(null, '', at);
  return render(<DbContext.Provider value={db}>{ui}</DbContext.Provider>).unmount;
}

describe('an edit draft of a pool whose collection changed meanwhile', SLOW, () => {
  it('comes back after a pull moved the pool to the twin trap’s collection', async () => {
    const db = await tabletDb();
    await storePulledRows(db, Date.now(), 'site', [SITE]);
    await storePulledRows(db, Date.now(), 'collection', [twin(9), twin(10)]);
    await storePulledRows(db, Date.now(), 'pool', [POOL]);
    const poolId = (await db.pools.where('serverId').equals(30).first())!.localId;
    const ui = <PoolEditScreen localId={poolId} />;
    const at = `/pools/${poolId}/edit`;
    const user = userEvent.setup();
    const unmount = mount(db, ui, at);
    await user.type(await screen.findByLabelText('Comments'), 'Two legs missing');
    await waitFor(
      async () => expect(await db.meta.where('key').startsWith('draft:').count()).toBe(1),
      { timeout: 3000 },
    );
    unmount();

    // The office puts the pool on the other trap of that night.
    await storePulledRows(db, Date.now(), 'pool', [
      { ...POOL, collection: 10, updated: '2026-07-15T08:00:00.000Z' },
    ]);
    const twinId = (await db.collections.where('serverId').equals(10).first())!.localId;
    expect((await db.pools.get(poolId))!.parentLocalId).toBe(twinId);

    mount(db, ui, at);
    expect(await screen.findByText(RESTORED)).toBeVisible();
    expect(screen.getByLabelText('Comments')).toHaveValue('Two legs missing');
    // Saved, the draft goes: no second copy left under the old place.
    await user.click(screen.getByRole('button', { name: 'Save pool' }));
    await waitFor(async () =>
      expect((await db.pools.get(poolId))!.data.comments).toBe('Two legs missing'),
    );
    await waitFor(async () =>
      expect(await db.meta.where('key').startsWith('draft:').count()).toBe(0),
    );
  });
});

describe('an edit draft kept by the version before (keyed by its parent too)', SLOW, () => {
  it('comes back, and a save leaves none behind', async () => {
    const db = await tabletDb();
    await storePulledRows(db, Date.now(), 'site', [SITE]);
    await storePulledRows(db, Date.now(), 'collection', [twin(9), twin(10)]);
    await storePulledRows(db, Date.now(), 'pool', [POOL]);
    const pool = (await db.pools.where('serverId').equals(30).first())!;
    const opened = { species: 1, sex: 4, num_count: 40 };
    await db.meta.put({
      key: `draft:pool:${pool.localId}:${pool.parentLocalId}`,
      value: {
        values: { ...opened, comments: 'Two legs missing' },
        openedWith: opened,
        savedAt: Date.now() - 60_000,
      },
    });
    const user = userEvent.setup();
    mount(db, <PoolEditScreen localId={pool.localId} />, `/pools/${pool.localId}/edit`);
    expect(await screen.findByText(RESTORED)).toBeVisible();
    expect(screen.getByLabelText('Comments')).toHaveValue('Two legs missing');
    await user.click(screen.getByRole('button', { name: 'Save pool' }));
    await waitFor(async () =>
      expect((await db.pools.get(pool.localId))!.data.comments).toBe('Two legs missing'),
    );
    await waitFor(async () =>
      expect(await db.meta.where('key').startsWith('draft:').count()).toBe(0),
    );
  });
});
