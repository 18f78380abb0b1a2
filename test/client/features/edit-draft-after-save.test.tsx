import type { within } from '@testing-library/react';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { describe, expect, it } from 'vitest';
import type { TraplineDb } from '../../../src/client/db/database';
import { CollectionFormScreen } from '../../../src/client/features/collections/collection-form-screen';
import { PoolEditScreen } from '../../../src/client/features/pools/pool-edit-screen';
import { PoolTestEditScreen } from '../../../src/client/features/pool-tests/pool-test-edit-screen';
import { SiteFormScreen } from '../../../src/client/features/sites/site-form-screen';
import { storePulledRows } from '../../../src/client/sync/store-pulled-rows';
import {
  busyDraftQueue,
  draftQueueDrained,
  drafts,
  killAndReopen,
  mount,
} from './helpers/draft-queue';
import { tabletDb, pulledSite } from './helpers/records';

// As draft-after-save.test.tsx for new pool tests, collections and pools: a new site, and the
// edits of a site, a collection, a pool and a pool test, saved and then the tab killed before the
// draft's separate removal reached the database. The saved typing must not come back as unsaved
// ("Restored what you typed"): saved again, a new site would be a duplicate, and an edit would
// be queued twice. Look-alike records on purpose (a twin site, twin pools and tests).

const SLOW = { timeout: 20_000 };
const RESTORED = /Restored what you typed on .+ before the app closed\./;
const WAIT = { timeout: 5000 };

const SITE = pulledSite({ add_date: '2026-07-01T10:00:00.000Z' });
const TWIN_SITE = pulledSite({ id: 502, code: '104234', name: 'Putah Creek N2' });
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
const TEST = (id: number, pool: number) => ({
  id,
  pool,
  method: 1,
  target: 1,
  status: 1,
  test_date: '2026-07-16T00:00:00.000Z',
  test_agency: 1,
});

/** Two sites, a collection at the first, two equal pools of it, each with an equal test. */
async function pulled() {
  const db = await tabletDb();
  await storePulledRows(db, Date.now(), 'site', [SITE, TWIN_SITE]);
  await storePulledRows(db, Date.now(), 'collection', [COLLECTION]);
  await storePulledRows(db, Date.now(), 'pool', [
    { id: 30, collection: 9, species: 1, sex: 4, num_count: 20, agency: 1 },
    { id: 31, collection: 9, species: 1, sex: 4, num_count: 20, agency: 1 },
  ]);
  await storePulledRows(db, Date.now(), 'poolTest', [TEST(70, 30), TEST(71, 31)]);
  const local = async (table: 'sites' | 'collections' | 'pools' | 'poolTests', id: number) =>
    (await db[table].where('serverId').equals(id).first())!.localId;
  return {
    db,
    siteId: await local('sites', 501),
    collectionId: await local('collections', 9),
    poolId: await local('pools', 30),
    testId: await local('poolTests', 70),
  };
}

/**
 * Types into the form at `at`, saves it with the tablet busy, kills the tab once `saved()` holds,
 * and opens the same form again: it must show no restored draft and keep none.
 */
async function saveKillAndReopen(options: {
  db: TraplineDb;
  ui: ReactElement;
  at: string;
  type: (
    view: ReturnType<typeof within>,
    user: ReturnType<typeof userEvent.setup>,
  ) => Promise<void>;
  /** The field typed on after the draft was written, and what is added to it before the save. */
  more?: [label: string, text: string];
  submit: string;
  saved: () => Promise<unknown>;
  ready: string;
}) {
  const { db, ui, at } = options;
  const user = userEvent.setup();
  const view = mount(db, ui, at);
  await options.type(view, user);
  await waitFor(async () => expect(await drafts(db)).toHaveLength(1));
  const busy = busyDraftQueue();
  // Typed on and saved at once: the draft holds the typing of a moment before.
  if (options.more) await user.type(view.getByLabelText(options.more[0]), options.more[1]);
  await user.click(view.getByRole('button', { name: options.submit }));
  await waitFor(options.saved, WAIT);
  const reopened = await killAndReopen(db, busy.release);

  mount(reopened, ui, at);
  await screen.findByLabelText(options.ready);
  await draftQueueDrained();
  await act(async () => {});
  expect(screen.queryByText(RESTORED)).not.toBeInTheDocument();
  expect(await drafts(reopened)).toEqual([]);
  reopened.close();
}

describe('a saved site or edit’s draft after the tab died before its removal', SLOW, () => {
  it('is not offered again for a new site', async () => {
    const { db } = await pulled();
    await saveKillAndReopen({
      db,
      ui: <SiteFormScreen />,
      at: '/sites/new',
      type: async (view, user) => {
        const code = await view.findByLabelText('Site code');
        await user.clear(code);
        await user.type(code, '104235');
        // The twin of Putah Creek N, a few metres away.
        await user.type(view.getByLabelText('Site name'), 'Putah Creek N3');
        await user.type(view.getByLabelText('Latitude'), '38.58');
        await user.type(view.getByLabelText('Longitude'), '-121.49');
        await user.selectOptions(view.getByLabelText('Coordinate precision'), '1');
      },
      submit: 'Save site',
      saved: async () => expect(await db.sites.count()).toBe(3),
      ready: 'Site name',
    });
  });

  it('is not offered again for an edit of a site', async () => {
    const { db, siteId } = await pulled();
    await saveKillAndReopen({
      db,
      ui: <SiteFormScreen localId={siteId} />,
      at: `/sites/${siteId}/edit`,
      type: async (view, user) => {
        const name = await view.findByLabelText('Site name');
        await user.clear(name);
        await user.type(name, 'Putah Creek');
      },
      more: ['Site name', ' N2'],
      submit: 'Save site',
      saved: async () => expect((await db.sites.get(siteId))!.name).toBe('Putah Creek N2'),
      ready: 'Site name',
    });
  });

  it('is not offered again for an edit of a collection', async () => {
    const { db, collectionId } = await pulled();
    await saveKillAndReopen({
      db,
      ui: <CollectionFormScreen localId={collectionId} />,
      at: `/collections/${collectionId}/edit`,
      type: async (view, user) => {
        await user.type(await view.findByLabelText('Comments'), 'Twin trap');
      },
      more: ['Comments', ' by the gate'],
      submit: 'Save collection',
      saved: async () =>
        expect((await db.collections.get(collectionId))!.data.comments).toBe(
          'Twin trap by the gate',
        ),
      ready: 'Comments',
    });
  });

  it('is not offered again for an edit of a pool', async () => {
    const { db, poolId } = await pulled();
    await saveKillAndReopen({
      db,
      ui: <PoolEditScreen localId={poolId} />,
      at: `/pools/${poolId}/edit`,
      type: async (view, user) => {
        await user.type(await view.findByLabelText('Comments'), 'Two legs');
      },
      more: ['Comments', ' missing'],
      submit: 'Save pool',
      saved: async () =>
        expect((await db.pools.get(poolId))!.data.comments).toBe('Two legs missing'),
      ready: 'Comments',
    });
  });

  it('is not offered again for an edit of a pool test', async () => {
    const { db, testId } = await pulled();
    await saveKillAndReopen({
      db,
      ui: <PoolTestEditScreen localId={testId} ownAgencyId={1} />,
      at: `/pool-tests/${testId}/edit`,
      type: async (view, user) => {
        await user.type(await view.findByLabelText('Comments'), 'Re-run');
      },
      more: ['Comments', ', same plate'],
      submit: 'Save test result',
      saved: async () =>
        expect((await db.poolTests.get(testId))!.data.comments).toBe('Re-run, same plate'),
      ready: 'Comments',
    });
  });
});
