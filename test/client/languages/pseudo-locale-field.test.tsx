import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { RawIntlProvider } from 'react-intl';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createCollection } from '../../../src/client/db/create-collection';
import { createPool } from '../../../src/client/db/create-pool';
import { createPoolTest } from '../../../src/client/db/create-pool-test';
import { createSite } from '../../../src/client/db/create-site';
import type { TraplineDb } from '../../../src/client/db/database';
import { DbContext } from '../../../src/client/db/db-context';
import { CollectionDetailScreen } from '../../../src/client/features/collections/collection-detail-screen';
import { CollectionFormScreen } from '../../../src/client/features/collections/collection-form-screen';
import { HomeScreen } from '../../../src/client/features/home/home-screen';
import { MapAreasScreen } from '../../../src/client/features/map-areas/map-areas-screen';
import { NearestSites } from '../../../src/client/features/map/nearest-sites';
import { PoolTestEditScreen } from '../../../src/client/features/pool-tests/pool-test-edit-screen';
import { PoolTestScreen } from '../../../src/client/features/pool-tests/pool-test-screen';
import { MakePoolsScreen } from '../../../src/client/features/pools/make-pools-screen';
import { PoolEditScreen } from '../../../src/client/features/pools/pool-edit-screen';
import { SiteDetailScreen } from '../../../src/client/features/sites/site-detail-screen';
import { SiteFormScreen } from '../../../src/client/features/sites/site-form-screen';
import { SyncEngineProvider, SyncStatusBar } from '../../../src/client/features/sync-status';
import { ParkedEntries } from '../../../src/client/features/sync-status/parked-entries';
import { english, makeIntl } from '../../../src/client/lib/i18n';
import { localDate } from '../../../src/client/lib/dates';
import type { SiteIndex } from '../../../src/client/lib/site-index';
import { createSyncEngine, INITIAL_STATUS, type SyncEngine } from '../../../src/client/sync';
import { makeCollection, makePool, makeSite } from '../db/factories';
import { parkRefused, tabletDb } from '../features/helpers/records';
import { pseudoLocalise, untranslatedTexts } from './pseudo-locale';

/**
 * The field screens (sites, collections, pools, pool tests, Home, the map, offline map areas, the
 * changes to review) drawn in the pseudo-locale over a tablet database holding a site, a
 * collection with abundance rows and a lure, two pools (one refused by the server) and a test: a
 * text on screen without the pseudo mark was written in the code, not taken from a catalogue.
 */
const intl = makeIntl('en-XA', pseudoLocalise(english));

type Seeded = {
  db: TraplineDb;
  siteId: string;
  collectionId: string;
  poolId: string;
  testId: string;
};

async function seed(): Promise<Seeded> {
  const db = await tabletDb();
  const siteId = await createSite(db, makeSite({ code: '104233', name: 'Putah Creek N' }));
  await createSite(db, makeSite({ code: '000000', name: 'Zero Site' }));
  const collectionId = await createCollection(
    db,
    siteId,
    makeCollection({
      collection_date: localDate(),
      collection_date_date_only: true,
      lures: [1],
      identified_by: 'R. Ortiz',
      arthropods: [
        { species: 1, sex: 4, num_count: 120 },
        { species: 2, sex: 2, num_count: 8 },
      ],
    }),
  );
  const poolId = await createPool(
    db,
    collectionId,
    makePool({ species: 1, sex: 4, num_count: 50 }),
  );
  const refused = await createPool(
    db,
    collectionId,
    makePool({ species: 1, sex: 4, num_count: 50 }),
  );
  const parked = await parkRefused(db, 'pool', refused, [
    { path: 'num_count', message: 'A pool holds at least 1' },
  ]);
  // The records service's own summary of a 422 (contract §2): its first field and message.
  const body = {
    code: 'validation_failed',
    message: 'num_count: A pool holds at least 1',
    fields: [{ path: 'num_count', message: 'A pool holds at least 1' }],
  };
  const entry = (await db.outbox.get(parked))!;
  await db.outbox.update(parked, { lastError: { ...entry.lastError!, body } });
  await db.pools.update(refused, { problem: body });
  const testId = await createPoolTest(db, poolId, {
    method: 1,
    target: 1,
    status: 2,
    test_agency: 1,
    test_date: localDate(),
  } as never);
  return { db, siteId, collectionId, poolId, testId };
}

/** What a screen shows that is the person's data, never translated. */
const DATA = [
  'Putah Creek N',
  '104233',
  'Zero Site',
  '000000',
  'R. Ortiz',
  'Cx tarsalis',
  'Cx pipiens',
  'Cx quinquefasciatus',
  'Ae aegypti',
  'female',
  'male',
  'other',
  'F-Mixed',
  'F-Unfed',
  'F-Bloodfed',
  'F-Gravid',
  'GRVD — Gravid trap',
  'CO2 — CO2 trap',
  'CO2 (Dry ice)',
  'GRVD',
  'CO2',
  'GPS (< 10 m)',
  'Address (< 100 m)',
  'County centroid',
  'Residential',
  'Agricultural',
  'California',
  'Demo Vector Control District',
  'Neighbor Mosquito Abatement District',
  'RT-PCR',
  'VecTest',
  'WNV',
  'SLEV',
  'West Nile virus',
  'St. Louis encephalitis virus',
  'Confirmed',
  'Negative',
  'Sam',
  // Dates and numbers come from Intl, in the locale's own words (this locale falls back to English).
  intl.formatDate(new Date(), { dateStyle: 'medium' }),
  intl.formatDate(new Date(), { dateStyle: 'full' }),
  intl.formatDate(new Date(), { month: 'short', day: 'numeric' }),
  intl.formatDate(new Date(), { weekday: 'long' }),
  'km',
  'm',
  // The coordinate sign button's sign (its name is said in words).
  '+/−',
];

/** An engine over the seeded tablet (no pull, no other tab): its status feeds the sync bar. */
const engines = new Map<TraplineDb, SyncEngine>();
function engineOf(s: Seeded): SyncEngine {
  let engine = engines.get(s.db);
  if (!engine) {
    engine = createSyncEngine(s.db, { autoPull: false, channelName: null });
    engines.set(s.db, engine);
  }
  return engine;
}

type Screen = {
  draw: (s: Seeded) => ReactElement;
  at?: (s: Seeded) => string;
  /** Waits for what the screen shows once its reads are in. */
  ready: (s: Seeded) => Promise<unknown>;
  /** Taps that bring out more of the screen (validation messages, a question). */
  act?: (user: ReturnType<typeof userEvent.setup>) => Promise<unknown>;
};

const form = () => screen.findByRole('form');
const SCREENS: Record<string, Screen> = {
  'new site form, after a save with nothing typed': {
    draw: () => <SiteFormScreen />,
    at: () => '/sites/new',
    ready: form,
    act: async (user) => {
      await user.clear(document.querySelector<HTMLInputElement>('input[name="code"]')!);
      await user.click(screen.getAllByRole('button').at(-1)!);
      await screen.findAllByRole('alert');
    },
  },
  'site detail': {
    draw: (s) => <SiteDetailScreen localId={s.siteId} />,
    at: (s) => `/sites/${s.siteId}`,
    ready: () => screen.findByRole('heading', { name: /104233/ }),
  },
  'collection form with abundance rows and lures': {
    draw: (s) => <CollectionFormScreen localId={s.collectionId} />,
    at: (s) => `/collections/${s.collectionId}/edit`,
    ready: () => screen.findAllByRole('spinbutton').catch(() => form()),
  },
  'new collection form at the Zero Site, after a save with nothing typed': {
    draw: () => <CollectionFormScreen />,
    at: () => '/collections/new',
    ready: form,
    act: async (user) => {
      // The Zero Site, by its pseudo-localised name.
      await user.click(await screen.findByRole('button', { name: /Ẑḗřǿ/ }));
      await user.click(screen.getAllByRole('button').at(-1)!);
      await screen.findAllByRole('alert');
    },
  },
  'collection detail with pools and a test': {
    draw: (s) => <CollectionDetailScreen localId={s.collectionId} />,
    at: (s) => `/collections/${s.collectionId}`,
    ready: () => screen.findByRole('table'),
  },
  'make pools': {
    draw: (s) => <MakePoolsScreen collectionLocalId={s.collectionId} />,
    at: (s) => `/collections/${s.collectionId}/pools`,
    ready: form,
  },
  'pool form': {
    draw: (s) => <PoolEditScreen localId={s.poolId} />,
    at: (s) => `/pools/${s.poolId}/edit`,
    ready: form,
  },
  'new pool test form, after a save with nothing typed': {
    draw: (s) => <PoolTestScreen poolLocalId={s.poolId} ownAgencyId={1} />,
    at: (s) => `/pools/${s.poolId}/tests/new`,
    ready: form,
    act: async (user) => {
      await user.click(screen.getAllByRole('button').at(-1)!);
      await screen.findAllByRole('alert');
    },
  },
  'pool test edit form': {
    draw: (s) => <PoolTestEditScreen localId={s.testId} ownAgencyId={1} />,
    at: (s) => `/pool-tests/${s.testId}/edit`,
    ready: form,
  },
  home: {
    draw: () => <HomeScreen userName="Sam" status={INITIAL_STATUS} online={false} />,
    ready: () => screen.findByRole('list', { name: /⟦/ }),
  },
  'the map’s Where am I': {
    draw: () => (
      <NearestSites
        index={
          {
            nearest: async () => [
              {
                site: {
                  id: 's',
                  code: '104233',
                  name: 'Putah Creek N',
                  state: 'synced',
                  lat: 38.59,
                  lon: -121.48,
                },
                meters: 1234,
                bearing: 45,
              },
            ],
          } as unknown as SiteIndex
        }
        version={1}
        position={{
          watching: true,
          fix: { lat: 38.58, lon: -121.49, accuracy: 8 } as never,
          message: null,
          failure: null,
          start: () => undefined,
        }}
        following={false}
        onFollow={() => undefined}
        onSelect={() => undefined}
      />
    ),
    ready: () => screen.findAllByRole('button'),
  },
  'offline map areas': {
    draw: () => <MapAreasScreen />,
    at: () => '/map-areas',
    ready: () => screen.findByRole('heading', { level: 1 }),
  },
  'the sync bar and the changes to review (a refused pool holding nothing, pending changes)': {
    draw: (s) => (
      <SyncEngineProvider engine={engineOf(s)}>
        <SyncStatusBar />
        <ParkedEntries onFix={() => undefined} onResolveConflict={() => undefined} />
      </SyncEngineProvider>
    ),
    at: () => '/sync',
    ready: () => screen.findByRole('note'),
    act: async (user) => {
      // Discard's question, with what depends on the refused change.
      await user.click(screen.getAllByRole('button', { name: /Ḓīşƈȧřḓ/ }).at(-1)!);
      await screen.findByRole('dialog');
    },
  },
};

afterEach(() => {
  cleanup();
  for (const engine of engines.values()) engine.stop();
  engines.clear();
  vi.unstubAllGlobals();
});

describe('the pseudo-locale on the field screens', () => {
  it.each(Object.entries(SCREENS))(
    '%s shows no text outside the catalogues',
    async (_, def) => {
      // Offline: nothing reaches a network; the screens say what they say without one.
      vi.stubGlobal(
        'fetch',
        vi.fn(async () => {
          throw new TypeError('Failed to fetch');
        }),
      );
      const seeded = await seed();
      history.replaceState(null, '', def.at?.(seeded) ?? '/');
      const user = userEvent.setup();
      const { container } = render(
        <RawIntlProvider value={intl}>
          <DbContext.Provider value={seeded.db}>{def.draw(seeded)}</DbContext.Provider>
        </RawIntlProvider>,
      );
      await def.ready(seeded);
      await def.act?.(user);
      // Live reads that come a moment after the first ones (counts, the rows of a list).
      await new Promise((r) => setTimeout(r, 300));
      expect(untranslatedTexts(document.body, DATA)).toEqual([]);
      expect(container.textContent).toMatch(/⟦/);
      seeded.db.close();
    },
    20_000,
  );
});
