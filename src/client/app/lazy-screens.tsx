/**
 * Every screen but Home, each its own chunk loaded on first use: the first screen a technician
 * sees waits only for what it shows. The service worker precaches every chunk, so they open
 * offline too.
 */
import { lazy, type ComponentProps } from 'react';

export const SiteListScreen = lazy(() =>
  import('../features/sites/site-list-screen').then((m) => ({ default: m.SiteListScreen })),
);
export const SiteDetailScreen = lazy(() =>
  import('../features/sites/site-detail-screen').then((m) => ({ default: m.SiteDetailScreen })),
);
export const CollectionDetailScreen = lazy(() =>
  import('../features/collections/collection-detail-screen').then((m) => ({
    default: m.CollectionDetailScreen,
  })),
);
export const ParkedEntries = lazy(() =>
  import('../features/sync-status/parked-entries').then((m) => ({ default: m.ParkedEntries })),
);
export const ConflictResolver = lazy(() =>
  import('../features/sync-status/conflict-resolver').then((m) => ({
    default: m.ConflictResolver,
  })),
);

// Forms and settings.
export const CollectionFormScreen = lazy(() =>
  import('../features/collections/collection-form-screen').then((m) => ({
    default: m.CollectionFormScreen,
  })),
);
export const SiteFormScreen = lazy(() =>
  import('../features/sites/site-form-screen').then((m) => ({ default: m.SiteFormScreen })),
);
export const MakePoolsScreen = lazy(() =>
  import('../features/pools/make-pools-screen').then((m) => ({ default: m.MakePoolsScreen })),
);
export const PoolTestScreen = lazy(() =>
  import('../features/pool-tests/pool-test-screen').then((m) => ({ default: m.PoolTestScreen })),
);
export const PoolEditScreen = lazy(() =>
  import('../features/pools/pool-edit-screen').then((m) => ({ default: m.PoolEditScreen })),
);
export const PoolTestEditScreen = lazy(() =>
  import('../features/pool-tests/pool-test-edit-screen').then((m) => ({
    default: m.PoolTestEditScreen,
  })),
);
// Reports and exports are for the office as much as the field.
export const ReportsScreen = lazy(() =>
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
export const ExportPanel = lazy(() =>
  import('../features/exports/export-panel').then((m) => ({ default: m.ExportPanel })),
);
export const SettingsScreen = lazy(() =>
  import('../features/settings/settings-screen').then((m) => ({ default: m.SettingsScreen })),
);

export const PhotoStrip = lazy(() =>
  import('../features/photos/photo-strip').then((m) => ({ default: m.PhotoStrip })),
);
// The Office (managers).
export const OfficeScreen = lazy(() =>
  import('../features/office/office-screen').then((m) => ({ default: m.OfficeScreen })),
);

// The History panel of a record and the manager's changes since (/office/history): read from
// the server through TanStack Query, so their chunk brings the query provider, as Reports does.
export const HistoryPanel = lazy(() =>
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
export const ChangesSinceScreen = lazy(() =>
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

// The Office's site import: managers only (technicians never load it).
export const SiteImportScreen = lazy(() =>
  import('../features/site-import/site-import-screen').then((m) => ({
    default: m.SiteImportScreen,
  })),
);

// Labels, the lab manifest and scanning (the scanner's WebAssembly on first scan only).
export const LabelsScreen = lazy(() =>
  import('../features/labels/labels-screen').then((m) => ({ default: m.LabelsScreen })),
);
export const ManifestScreen = lazy(() =>
  import('../features/labels/manifest-screen').then((m) => ({ default: m.ManifestScreen })),
);
export const ScanScreen = lazy(() =>
  import('../features/scan/scan-screen').then((m) => ({ default: m.ScanScreen })),
);

// Offline map areas, opened from under the Sites map.
export const MapAreasScreen = lazy(() =>
  import('../features/map-areas/map-areas-screen').then((m) => ({ default: m.MapAreasScreen })),
);

// Leaflet is its own chunk: the first screen does not wait for the map.
export const loadSitesMap = () => import('../features/map/sites-map');
export const SitesMap = lazy(loadSitesMap);
export const SavedMapNote = lazy(() =>
  import('../features/map-areas/saved-map-note').then((m) => ({ default: m.SavedMapNote })),
);
export const LocationPicker = lazy(() => import('../features/map/location-picker'));
export const SiteSpotMap = lazy(() => import('../features/map/site-spot-map'));
