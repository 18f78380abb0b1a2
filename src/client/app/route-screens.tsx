/** The small screens and fallbacks the routes compose around the features' screens. */
import { Suspense, useCallback, type ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import type { Entity } from '#shared';
import { HomeScreen, homeSyncCounts } from '../features/home/home-screen';
import { useSyncStatusOf } from '../features/sync-status';
import { useI18n } from '../lib/i18n';
import { useOnline } from '../lib/use-online';
import { PartErrorBoundary } from './error-boundaries';
import {
  ChangesSinceScreen,
  ConflictResolver,
  ParkedEntries,
  PhotoStrip,
  SavedMapNote,
  SiteDetailScreen,
  SiteListScreen,
  SiteSpotMap,
  SitesMap,
} from './lazy-screens';
import { FetchAhead } from './lazy-chunk';

/** An address the app has no screen for (or one this person may not see). */
export function NotFound() {
  const intl = useI18n();
  return (
    <section className="screen">
      <h1>{intl.formatMessage({ id: 'routes.notFound', defaultMessage: 'Not found' })}</h1>
      <p>
        {intl.formatMessage({
          id: 'routes.notFoundBody',
          defaultMessage: 'This page does not exist.',
        })}
      </p>
    </section>
  );
}

/** The import screen's address opened by a technician. */
export function ManagersOnlyImport() {
  const intl = useI18n();
  return (
    <section className="screen">
      <h1>{intl.formatMessage({ id: 'routes.importTitle', defaultMessage: 'Import sites' })}</h1>
      <p>
        {intl.formatMessage({
          id: 'routes.importManagersOnly',
          defaultMessage: 'Only managers can import sites.',
        })}
      </p>
    </section>
  );
}

/** Managers only: a technician never loads the screen's code (contract §11: 403 anyway). */
export function OfficeHistoryRoute({ isManager }: { isManager: boolean }) {
  if (!isManager) return <NotFound />;
  return <ChangesSinceScreen />;
}

function MapFallback() {
  const intl = useI18n();
  return (
    <div className="map map-loading">
      {intl.formatMessage({ id: 'map.loading', defaultMessage: 'Loading map…' })}
    </div>
  );
}

/** A map part: one that fails to load leaves its screen, and what was typed in it, in place. */
export function MapPart({ children }: { children: ReactNode }) {
  return (
    <PartErrorBoundary what="map">
      <Suspense fallback={<MapFallback />}>{children}</Suspense>
    </PartErrorBoundary>
  );
}

/** Under the Sites map: the way to the offline map areas. */
function MapAreasLink() {
  const intl = useI18n();
  return (
    <Link href="/map-areas" className="button button-quiet">
      {intl.formatMessage({ id: 'mapAreas.title', defaultMessage: 'Offline map areas' })}
    </Link>
  );
}

/**
 * A site's page, its small map and its photos, where a tap on Sites leads: their code fetched
 * while Sites is shown and the tablet idle, so the page opens without "Loading…" (lazy-chunk.tsx).
 */
const FROM_SITES = [SiteDetailScreen, SiteSpotMap, PhotoStrip];

/** The Sites list with its map. */
export function SitesRoute() {
  const [, navigate] = useLocation();
  return (
    <>
      <FetchAhead screens={FROM_SITES} />
      <SiteListScreen
        map={
          <>
            <MapPart>
              <SitesMap
                onSelect={(id) => navigate(`/sites/${id}`)}
                overlay={
                  <Suspense fallback={null}>
                    <SavedMapNote />
                  </Suspense>
                }
              />
            </MapPart>
            <MapAreasLink />
          </>
        }
      />
    </>
  );
}

/** While a screen's code arrives. */
export function ScreenLoading() {
  const intl = useI18n();
  return (
    <p className="screen">
      {intl.formatMessage({ id: 'collections.loading', defaultMessage: 'Loading…' })}
    </p>
  );
}

/** Resolve a conflict (sync-status feature), under its heading. */
export function ConflictScreen({ entryId, onDone }: { entryId: string; onDone: () => void }) {
  const intl = useI18n();
  return (
    <section className="screen">
      <h1>{intl.formatMessage({ id: 'conflict.title', defaultMessage: 'Resolve a conflict' })}</h1>
      <ConflictResolver entryId={entryId} onDone={onDone} />
    </section>
  );
}

export function SyncScreen() {
  const [, navigate] = useLocation();
  const intl = useI18n();
  // Fix: open the form of the refused record (each record has its own edit screen).
  const onFix = useCallback(
    (entity: Entity, localId: string) => {
      if (entity === 'site') return navigate(`/sites/${localId}/edit`);
      if (entity === 'collection') return navigate(`/collections/${localId}/edit`);
      if (entity === 'pool') return navigate(`/pools/${localId}/edit`);
      return navigate(`/pool-tests/${localId}/edit`);
    },
    [navigate],
  );
  return (
    <section className="screen">
      <h1>{intl.formatMessage({ id: 'parked.title', defaultMessage: 'Changes to review' })}</h1>
      <ParkedEntries onFix={onFix} onResolveConflict={(id) => navigate(`/sync/conflict/${id}`)} />
    </section>
  );
}

/**
 * Home with the sync counts and the connection it shows. Read here, not in AppRoutes: the status
 * changes with every page a pull stores and every answer a drain gets, and in AppRoutes each
 * change rendered the whole route tree again, the open screen included (a New site form while
 * a sync brought 200 renamed sites: tasks of 126 ms). Only the counts: Home is not drawn again
 * for each page of a first pull, which the sync bar alone shows.
 */
export function HomeRoute({ userName }: { userName: string }) {
  const status = useSyncStatusOf(homeSyncCounts);
  const online = useOnline();
  return <HomeScreen userName={userName} status={status} online={online} />;
}
