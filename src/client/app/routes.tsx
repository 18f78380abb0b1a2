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
import { Suspense, useCallback } from 'react';
import { Route, Switch, useLocation } from 'wouter';
import { useSyncEngine } from '../features/sync-status';
import { LeaveGuard } from '../ui/form/leave-guard';
import {
  CollectionDetailScreen,
  CollectionFormScreen,
  ExportPanel,
  LabelsScreen,
  MakePoolsScreen,
  ManifestScreen,
  MapAreasScreen,
  OfficeScreen,
  PhotoStrip,
  PoolEditScreen,
  PoolTestEditScreen,
  PoolTestScreen,
  ReportsScreen,
  ScanScreen,
  SettingsScreen,
  SiteDetailScreen,
  SiteFormScreen,
  SiteImportScreen,
  SiteListScreen,
  SitesMap,
} from './lazy-screens';
import { FetchAhead } from './lazy-chunk';
import { badge, HISTORY, picker, spot } from './record-parts';
import {
  ConflictScreen,
  HomeRoute,
  ManagersOnlyImport,
  NotFound,
  OfficeHistoryRoute,
  ScreenLoading,
  SitesRoute,
  SyncScreen,
} from './route-screens';

/**
 * The Sites map's code (Leaflet and the map's own), fetched from the app's start while the tablet
 * is idle: evaluated on the tap that opens Sites, it was that screen's longest task (a module
 * graph evaluates in one task, which nothing can slice). The Sites list's and the collection
 * form's code too, the screens a technician opens from Home: a screen whose code is here opens
 * without its "Loading…" and React's wait after it (lazy-chunk.tsx).
 */
const FROM_THE_START = [SitesMap, SiteListScreen, CollectionFormScreen];
/**
 * The screens a technician goes on to, fetched while the one before is shown (FetchAhead): a
 * saved collection's page with its photos; from a collection, its pools and a pool's test.
 */
const AFTER_COLLECTION_FORM = [CollectionDetailScreen, PhotoStrip];
const AFTER_COLLECTION = [MakePoolsScreen, PoolTestScreen];

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
  return (
    <>
      {/* Outside Suspense: a screen loading does not drop an open question. */}
      <LeaveGuard />
      <FetchAhead screens={FROM_THE_START} />
      <Suspense fallback={<ScreenLoading />}>
        <Switch>
          <Route path="/">
            <HomeRoute userName={userName} />
          </Route>
          <Route path="/sites">
            <SitesRoute />
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
            <FetchAhead screens={AFTER_COLLECTION_FORM} />
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
                <FetchAhead screens={AFTER_COLLECTION} />
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
