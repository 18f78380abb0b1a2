/**
 * Routes, and the accessible names the end-to-end tests rely on (keep them stable):
 *
 * /                         Home: heading "Hello, <user>", "New collection", "Sites", "Scan a label" (no Sync now),
 *                           list "Today's collections"; counts data-testid home-pending / home-parked
 * /sites                    heading "Sites", link "New site", search "Search sites", list "Sites",
 *                           region "Map of sites" (lazy Leaflet)
 * /sites/new, /:id/edit     form "Site": "Site code", "Site name", "Use my location", "Latitude",
 *                           "Longitude", "Coordinate precision", "Address", "Address line 2", "City",
 *                           "Postal code", "Population", "Elevation (m)", checkboxes under "Land usage",
 *                           "Comments"; button "Save site"; region "Map: tap to place the site"
 * /sites/:id                heading "<code> <name>", "New collection here", "Edit site",
 *                           list "Recent collections", region "Map of <code> <name>", distance
 *                           data-testid site-distance ("Show my distance" until known)
 * /collections/new?site=…   form "Collection": "Find a site" + buttons "<code> <name>" and
 * /collections/:id/edit       "Zero Site (one-off location)", "Change site" (new only: an edit
 *                           shows the site read-only, data-testid chosen-site); at the Zero Site
 *                           "Latitude", "Longitude", "Coordinate precision"; "Collection date",
 *                           "Date only (no time)", "Trap type", "Number of traps", "Trap nights",
 *                           "Trap problem", checkboxes under "Lures", "Add Cx tarsalis" (quick-add),
 *                           "Add row", "Species (row N)", "Sex (row N)", "Count (row N)",
 *                           "Remove row N", total data-testid abundance-total, "Identified by",
 *                           "Comments"; button "Save collection"
 * /collections/:id          "Edit collection", "Make pools", "Delete collection", table of
 *                           abundance, list "Pools" with "Edit pool N", "Add test result" per
 *                           pool and "Edit test result" per test
 * /collections/:id/pools    form "Pools": "Pool N count", "Remove pool N", "Save pools"
 * /pools/:id/tests/new      form "Pool test": "Test method", "Target", "Result", "Test date",
 *                           "Testing agency", "Value (Ct)", "Comments"; "Save test result"
 * /pools/:id/edit           form "Pool": "Species", "Sex", "Pool count", "Comments"; "Save pool",
 *                           "Remove pool" (asks first)
 * /pool-tests/:id/edit      form "Pool test" as above, filled; "Save test result"
 * /sync                     parked and conflicting changes (sync-status feature)
 * /reports                  heading "Reports" (report pickers, chart, table, CSV) and region
 *                           "Download the agency's data" (exports)
 * /map-areas                heading "Offline map areas" (link "Offline map areas" under the Sites
 *                           map): form "Download an area", list "Saved map areas"
 * Photos                    on /sites/:id, /collections/:id, /pools/:id/edit: region "Photos"
 *                           with "Add photo" (file input "Add photo", camera) and list of
 *                           thumbnails ("Photo <filename>", "Waiting to send" | "Sent" | …)
 * History panel              on /sites/:id, /collections/:id, /pools/:id/edit, /pool-tests/:id/edit:
 *                           region "History" with list "Changes" (one item a change: "<Created |
 *                           Changed | Deleted> by <user> · <when>", then sentences such as
 *                           "Count of Cx tarsalis F-Mixed 41 → 14"); offline a status "The history
 *                           needs a connection…"
 * /office/history           managers only: heading "Changes since", date "Since", button
 *                           "Download CSV", list "Changes", "Previous page" / "Next page"
 * /settings                 "Persistent storage", "Refresh lookups", "Sign out"
 * /labels?collection=…|date=…  heading "Pool labels": "Pools collected on" (date), radios under
 *                           "Label stock", "Print N labels", list "Waiting for a number", region
 *                           "Labels to print" (one article "Pool N" a label); "Lab manifest for
 *                           these pools"
 * /manifest?collection=…|date=…  heading "Lab manifest": "Ship pool N" checkboxes, "Print manifest
 *                           (N pools)", "Labels for these pools"
 * /scan                     (Home: "Scan a label") heading "Scan a label or trap tag": video "Camera", "Scan a photo"
 *                           (file input); a pool label opens /pools/:id/tests/new, a site tag
 *                           /collections/new?site=…
 * /office                   managers only (others: "The Office is for managers only."): heading
 *                           "Office", links "Import sites" (/office/import) and "Changes"
 *                           (/office/history); form "Add a person" ("Username", "Full name",
 *                           "Role", "Add person"); list "People" with per person "Make manager:
 *                           <username>" / "Make technician: …", "Reset password: …",
 *                           "Deactivate: …" / "Reactivate: …"; a secret shown once in region
 *                           "Temporary password for <username>" / "New agency token" with "Copy";
 *                           list "Agency tokens" with "Revoke token <id>", "Create agency token"
 * /office/import            managers only (others: "Only managers can import sites"): heading
 *                           "Import sites", file input "Choose a CSV or GeoJSON file", region
 *                           "Check of <file>" (Rows, To create, To update, Unchanged; table
 *                           "Problems in the file"), button "Import N sites", region
 *                           "Import of <file>"
 * Sign-in screen:           "Username", "Password", button "Sign in"; sheet dialog "Sign in again"
 *                           with "Signed in as <user>", "Password" (focused), "Sign in", "Later";
 *                           after a temporary password, form "Choose your password" with "New
 *                           password", "New password again", "Set password and sign in", "Back"
 * Navigation:               nav "Main" with links "Home", "Sites", "New collection", "Sync", "Reports",
 *                           "Office" (managers only), "Settings";
 *                           leaving a dirty form asks dialog "Discard the changes you typed?" with
 *                           "Keep editing" (focused) and "Discard changes"
 * A screen that fails:      alert with heading "Something went wrong showing this screen" (or "This
 *                           screen could not load" when its code did not arrive; focused), "What is
 *                           saved on this tablet is safe.", buttons "Reload" and "Go to start"
 */
import { lazy, Suspense, useCallback, useEffect, type ComponentProps, type ReactNode } from 'react';
import { Link, Route, Switch, useLocation } from 'wouter';
import type { Entity } from '#shared';
import type { LocalRecord } from '../db/database';
import { HomeScreen } from '../features/home/home-screen';
import type { LocationPickerProps } from '../features/sites/site-form';
import type { SiteSpotProps } from '../features/sites/site-detail-screen';
import { StoredRecordSyncBadge, useSyncEngine, useSyncStatus } from '../features/sync-status';
import { LeaveGuard } from '../ui/form/leave-guard';
import { useI18n } from '../lib/i18n';
import { useOnline } from '../lib/use-online';
import { whenIdle } from '../lib/when-idle';
import type { HistoryEntity } from '#shared/schemas/history';
import { PartErrorBoundary } from './error-boundaries';

// Only Home is in the first load: every other screen is its own chunk, loaded on first use (the
// service worker precaches every chunk, so they open offline too).
const SiteListScreen = lazy(() =>
  import('../features/sites/site-list-screen').then((m) => ({ default: m.SiteListScreen })),
);
const SiteDetailScreen = lazy(() =>
  import('../features/sites/site-detail-screen').then((m) => ({ default: m.SiteDetailScreen })),
);
const CollectionDetailScreen = lazy(() =>
  import('../features/collections/collection-detail-screen').then((m) => ({
    default: m.CollectionDetailScreen,
  })),
);
const ParkedEntries = lazy(() =>
  import('../features/sync-status/parked-entries').then((m) => ({ default: m.ParkedEntries })),
);
const ConflictResolver = lazy(() =>
  import('../features/sync-status/conflict-resolver').then((m) => ({
    default: m.ConflictResolver,
  })),
);

// Forms and settings load on first use (the service worker precaches every chunk, so they
// open offline too): the first screen a technician sees waits only for what it shows.
const CollectionFormScreen = lazy(() =>
  import('../features/collections/collection-form-screen').then((m) => ({
    default: m.CollectionFormScreen,
  })),
);
const SiteFormScreen = lazy(() =>
  import('../features/sites/site-form-screen').then((m) => ({ default: m.SiteFormScreen })),
);
const MakePoolsScreen = lazy(() =>
  import('../features/pools/make-pools-screen').then((m) => ({ default: m.MakePoolsScreen })),
);
const PoolTestScreen = lazy(() =>
  import('../features/pool-tests/pool-test-screen').then((m) => ({ default: m.PoolTestScreen })),
);
const PoolEditScreen = lazy(() =>
  import('../features/pools/pool-edit-screen').then((m) => ({ default: m.PoolEditScreen })),
);
const PoolTestEditScreen = lazy(() =>
  import('../features/pool-tests/pool-test-edit-screen').then((m) => ({
    default: m.PoolTestEditScreen,
  })),
);
// Reports and exports are for the office as much as the field: their own chunk, loaded on first use.
const ReportsScreen = lazy(() =>
  Promise.all([import('../features/reports/reports-screen'), import('./query-provider')]).then(
    ([screen, query]) => ({
      default: (props: ComponentProps<typeof screen.ReportsScreen>) => (
        <query.QueryProvider>
          <screen.ReportsScreen {...props} />
        </query.QueryProvider>
      ),
    }),
  ),
);
const ExportPanel = lazy(() =>
  import('../features/exports/export-panel').then((m) => ({ default: m.ExportPanel })),
);
const SettingsScreen = lazy(() =>
  import('../features/settings/settings-screen').then((m) => ({ default: m.SettingsScreen })),
);

// The Office (managers): its own chunk, loaded on first use.
const PhotoStrip = lazy(() =>
  import('../features/photos/photo-strip').then((m) => ({ default: m.PhotoStrip })),
);
const OfficeScreen = lazy(() =>
  import('../features/office/office-screen').then((m) => ({ default: m.OfficeScreen })),
);

// The History panel of a record and the manager's changes since (/office/history): read from
// the server through TanStack Query, so their chunk brings the query provider, as Reports does.
const HistoryPanel = lazy(() =>
  Promise.all([import('../features/history/history-panel'), import('./query-provider')]).then(
    ([panel, query]) => ({
      default: (props: ComponentProps<typeof panel.HistoryPanel>) => (
        <query.QueryProvider>
          <panel.HistoryPanel {...props} />
        </query.QueryProvider>
      ),
    }),
  ),
);
const ChangesSinceScreen = lazy(() =>
  Promise.all([
    import('../features/history/changes-since-screen'),
    import('./query-provider'),
  ]).then(([screen, query]) => ({
    default: () => (
      <query.QueryProvider>
        <screen.ChangesSinceScreen />
      </query.QueryProvider>
    ),
  })),
);

/** The History panel under a record screen: a part that fails leaves the screen in place. */
const historyOf = (entity: HistoryEntity) =>
  function RecordHistory(serverId: number | null, serverUpdated: string | null) {
    return (
      <PartErrorBoundary what="history">
        <Suspense fallback={null}>
          <HistoryPanel entity={entity} serverId={serverId} serverUpdated={serverUpdated} />
        </Suspense>
      </PartErrorBoundary>
    );
  };
const HISTORY = {
  site: historyOf('site'),
  collection: historyOf('collection'),
  pool: historyOf('pool'),
  test: historyOf('test'),
};

/** Managers only: a technician never loads the screen's code (contract §11: 403 anyway). */
function OfficeHistoryRoute({ isManager }: { isManager: boolean }) {
  if (!isManager) return <NotFound />;
  return <ChangesSinceScreen />;
}

// The Office's site import: managers only, its own chunk (technicians never load it).
const SiteImportScreen = lazy(() =>
  import('../features/site-import/site-import-screen').then((m) => ({
    default: m.SiteImportScreen,
  })),
);

// Labels, the lab manifest and scanning: their own chunks (the scanner's WebAssembly on first
// scan only).
const LabelsScreen = lazy(() =>
  import('../features/labels/labels-screen').then((m) => ({ default: m.LabelsScreen })),
);
const ManifestScreen = lazy(() =>
  import('../features/labels/manifest-screen').then((m) => ({ default: m.ManifestScreen })),
);
const ScanScreen = lazy(() =>
  import('../features/scan/scan-screen').then((m) => ({ default: m.ScanScreen })),
);

// Offline map areas: their own chunk, opened from under the Sites map.
const MapAreasScreen = lazy(() =>
  import('../features/map-areas/map-areas-screen').then((m) => ({ default: m.MapAreasScreen })),
);

// Leaflet is its own chunk: the first screen does not wait for the map.
const loadSitesMap = () => import('../features/map/sites-map');
const SitesMap = lazy(loadSitesMap);
const SavedMapNote = lazy(() =>
  import('../features/map-areas/saved-map-note').then((m) => ({ default: m.SavedMapNote })),
);
const LocationPicker = lazy(() => import('../features/map/location-picker'));
const SiteSpotMap = lazy(() => import('../features/map/site-spot-map'));

/** An address the app has no screen for (or one this person may not see). */
function NotFound() {
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
function ManagersOnlyImport() {
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

function MapFallback() {
  const intl = useI18n();
  return (
    <div className="map map-loading">
      {intl.formatMessage({ id: 'map.loading', defaultMessage: 'Loading map…' })}
    </div>
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

/** While a screen's code arrives. */
function ScreenLoading() {
  const intl = useI18n();
  return (
    <p className="screen">
      {intl.formatMessage({ id: 'collections.loading', defaultMessage: 'Loading…' })}
    </p>
  );
}

/** Resolve a conflict (sync-status feature), under its heading. */
function ConflictScreen({ entryId, onDone }: { entryId: string; onDone: () => void }) {
  const intl = useI18n();
  return (
    <section className="screen">
      <h1>{intl.formatMessage({ id: 'conflict.title', defaultMessage: 'Resolve a conflict' })}</h1>
      <ConflictResolver entryId={entryId} onDone={onDone} />
    </section>
  );
}

const badge = (row: LocalRecord<unknown, unknown>): ReactNode => (
  <StoredRecordSyncBadge record={row} />
);

function SyncScreen() {
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
 * Home with the sync status and the connection it shows. Read here, not in AppRoutes: the status
 * changes with every page a pull stores and every answer a drain gets, and in AppRoutes each
 * change rendered the whole route tree again, the open screen included (a New site form while
 * a sync brought 200 renamed sites: tasks of 126 ms).
 */
function HomeRoute({ userName }: { userName: string }) {
  const status = useSyncStatus();
  const online = useOnline();
  return <HomeScreen userName={userName} status={status} online={online} />;
}

type RoutesProps = {
  userName: string;
  agencyId: number;
  agencyName: string;
  username: string;
  /** The signed-in user's id (null for an agency token) and whether they are a manager. */
  userId: number | null;
  isManager: boolean;
  /** Signs out; `removeData`: and removes this user's data from the tablet (nothing unsent). */
  onSignOut: (options?: { removeData?: boolean }) => void;
  onRefreshLookups: () => Promise<string>;
};

export function AppRoutes({
  userName,
  agencyId,
  agencyName,
  username,
  userId,
  isManager,
  onSignOut,
  onRefreshLookups,
}: RoutesProps) {
  const engine = useSyncEngine();
  const [, navigate] = useLocation();
  const saved = useCallback(() => engine.requestSync('save'), [engine]);
  // The Sites map's code (Leaflet and the map's own) evaluated while the tablet is idle: done on
  // the tap that opens Sites, it was that screen's longest task (a module graph evaluates in one
  // task, which nothing can slice).
  useEffect(() => whenIdle(() => void loadSitesMap().catch(() => undefined), 2_000), []);
  const picker = useCallback(
    (props: LocationPickerProps) => (
      // A map that fails to load leaves the form, and what was typed, in place.
      <PartErrorBoundary what="map">
        <Suspense fallback={<MapFallback />}>
          <LocationPicker {...props} />
        </Suspense>
      </PartErrorBoundary>
    ),
    [],
  );
  const spot = useCallback(
    (props: SiteSpotProps) => (
      <PartErrorBoundary what="map">
        <Suspense fallback={<MapFallback />}>
          <SiteSpotMap {...props} />
        </Suspense>
      </PartErrorBoundary>
    ),
    [],
  );
  return (
    <>
      {/* Outside Suspense: a screen loading does not drop an open question. */}
      <LeaveGuard />
      <Suspense fallback={<ScreenLoading />}>
        <Switch>
          <Route path="/">
            <HomeRoute userName={userName} />
          </Route>
          <Route path="/sites">
            <SiteListScreen
              map={
                <>
                  <PartErrorBoundary what="map">
                    <Suspense fallback={<MapFallback />}>
                      <SitesMap
                        onSelect={(id) => navigate(`/sites/${id}`)}
                        overlay={
                          <Suspense fallback={null}>
                            <SavedMapNote />
                          </Suspense>
                        }
                      />
                    </Suspense>
                  </PartErrorBoundary>
                  <MapAreasLink />
                </>
              }
            />
          </Route>
          <Route path="/sites/new">
            <SiteFormScreen onSaved={saved} renderPicker={picker} />
          </Route>
          <Route path="/sites/:id/edit">
            {(p) => <SiteFormScreen localId={p.id} onSaved={saved} renderPicker={picker} />}
          </Route>
          <Route path="/sites/:id">
            {(p) => (
              <>
                <SiteDetailScreen
                  localId={p.id}
                  renderBadge={badge}
                  renderMap={spot}
                  renderHistory={HISTORY.site}
                />
                <PhotoStrip entity="site" recordLocalId={p.id} />
              </>
            )}
          </Route>
          <Route path="/collections/new">
            <CollectionFormScreen onSaved={saved} />
          </Route>
          <Route path="/collections/:id/edit">
            {(p) => <CollectionFormScreen localId={p.id} onSaved={saved} />}
          </Route>
          <Route path="/collections/:id/pools">
            {(p) => <MakePoolsScreen collectionLocalId={p.id} onSaved={saved} />}
          </Route>
          <Route path="/collections/:id">
            {(p) => (
              <>
                <CollectionDetailScreen
                  localId={p.id}
                  renderBadge={badge}
                  renderHistory={HISTORY.collection}
                />
                <PhotoStrip entity="collection" recordLocalId={p.id} />
              </>
            )}
          </Route>
          <Route path="/pools/:id/tests/new">
            {(p) => <PoolTestScreen poolLocalId={p.id} ownAgencyId={agencyId} onSaved={saved} />}
          </Route>
          <Route path="/pools/:id/edit">
            {(p) => (
              <>
                <PoolEditScreen localId={p.id} onSaved={saved} renderHistory={HISTORY.pool} />
                <PhotoStrip entity="pool" recordLocalId={p.id} />
              </>
            )}
          </Route>
          <Route path="/pool-tests/:id/edit">
            {(p) => (
              <PoolTestEditScreen
                localId={p.id}
                ownAgencyId={agencyId}
                onSaved={saved}
                renderHistory={HISTORY.test}
              />
            )}
          </Route>
          <Route path="/sync">
            <SyncScreen />
          </Route>
          <Route path="/sync/conflict/:id">
            {(p) => <ConflictScreen entryId={p.id} onDone={() => navigate('/sync')} />}
          </Route>
          <Route path="/reports">
            <ReportsScreen exports={<ExportPanel />} />
          </Route>
          <Route path="/office/import">
            {isManager ? (
              <SiteImportScreen onImported={() => engine.requestSync()} />
            ) : (
              <ManagersOnlyImport />
            )}
          </Route>
          <Route path="/labels">
            <LabelsScreen />
          </Route>
          <Route path="/manifest">
            <ManifestScreen preparedBy={userName} />
          </Route>
          <Route path="/scan">
            <ScanScreen />
          </Route>
          <Route path="/map-areas">
            <MapAreasScreen />
          </Route>
          <Route path="/office/history">
            <OfficeHistoryRoute isManager={isManager} />
          </Route>
          <Route path="/office">
            <OfficeScreen isManager={isManager} currentUserId={userId} />
          </Route>
          <Route path="/settings">
            <SettingsScreen
              username={username}
              agencyName={agencyName}
              onSignOut={onSignOut}
              onRefreshLookups={onRefreshLookups}
            />
          </Route>
          <Route>
            <NotFound />
          </Route>
        </Switch>
      </Suspense>
    </>
  );
}
