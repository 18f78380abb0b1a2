/**
 * Every screen but Home, each its own chunk loaded on first use: the first screen a technician
 * sees waits only for what it shows. The service worker precaches every chunk, so they open
 * offline too.
 */
import type { ComponentType } from 'react';
import { lazyChunk } from './lazy-chunk';

/** A screen read from the server through TanStack Query: its chunk brings the query provider. */
function withQuery<P extends object>(load: () => Promise<ComponentType<P>>) {
  return lazyChunk(() =>
    Promise.all([load(), import('./query-provider')]).then(
      ([Screen, query]) =>
        function WithQuery(props: P) {
          return (
            <query.QueryProvider>
              <Screen {...props} />
            </query.QueryProvider>
          );
        },
    ),
  );
}

export const SiteListScreen = lazyChunk(() =>
  import('../features/sites/site-list-screen').then((m) => m.SiteListScreen),
);
export const SiteDetailScreen = lazyChunk(() =>
  import('../features/sites/site-detail-screen').then((m) => m.SiteDetailScreen),
);
export const CollectionDetailScreen = lazyChunk(() =>
  import('../features/collections/collection-detail-screen').then((m) => m.CollectionDetailScreen),
);
export const ParkedEntries = lazyChunk(() =>
  import('../features/sync-status/parked-entries').then((m) => m.ParkedEntries),
);
export const ConflictResolver = lazyChunk(() =>
  import('../features/sync-status/conflict-resolver').then((m) => m.ConflictResolver),
);

// Forms and settings.
export const CollectionFormScreen = lazyChunk(() =>
  import('../features/collections/collection-form-screen').then((m) => m.CollectionFormScreen),
);
export const SiteFormScreen = lazyChunk(() =>
  import('../features/sites/site-form-screen').then((m) => m.SiteFormScreen),
);
export const MakePoolsScreen = lazyChunk(() =>
  import('../features/pools/make-pools-screen').then((m) => m.MakePoolsScreen),
);
export const PoolTestScreen = lazyChunk(() =>
  import('../features/pool-tests/pool-test-screen').then((m) => m.PoolTestScreen),
);
export const PoolEditScreen = lazyChunk(() =>
  import('../features/pools/pool-edit-screen').then((m) => m.PoolEditScreen),
);
export const PoolTestEditScreen = lazyChunk(() =>
  import('../features/pool-tests/pool-test-edit-screen').then((m) => m.PoolTestEditScreen),
);
// Reports and exports are for the office as much as the field.
export const ReportsScreen = withQuery(() =>
  import('../features/reports/reports-screen').then((m) => m.ReportsScreen),
);
export const ExportPanel = lazyChunk(() =>
  import('../features/exports/export-panel').then((m) => m.ExportPanel),
);
export const SettingsScreen = lazyChunk(() =>
  import('../features/settings/settings-screen').then((m) => m.SettingsScreen),
);

export const PhotoStrip = lazyChunk(() =>
  import('../features/photos/photo-strip').then((m) => m.PhotoStrip),
);
// The Office (managers).
export const OfficeScreen = lazyChunk(() =>
  import('../features/office/office-screen').then((m) => m.OfficeScreen),
);

// The History panel of a record and the manager's changes since (/office/history): read from
// the server through TanStack Query, so their chunk brings the query provider, as Reports does.
export const HistoryPanel = withQuery(() =>
  import('../features/history/history-panel').then((m) => m.HistoryPanel),
);
export const ChangesSinceScreen = withQuery(() =>
  import('../features/history/changes-since-screen').then((m) => m.ChangesSinceScreen),
);

// The Office's site import: managers only (technicians never load it).
export const SiteImportScreen = lazyChunk(() =>
  import('../features/site-import/site-import-screen').then((m) => m.SiteImportScreen),
);

// Labels, the lab manifest and scanning (the scanner's WebAssembly on first scan only).
export const LabelsScreen = lazyChunk(() =>
  import('../features/labels/labels-screen').then((m) => m.LabelsScreen),
);
export const ManifestScreen = lazyChunk(() =>
  import('../features/labels/manifest-screen').then((m) => m.ManifestScreen),
);
export const ScanScreen = lazyChunk(() =>
  import('../features/scan/scan-screen').then((m) => m.ScanScreen),
);

// Offline map areas, opened from under the Sites map.
export const MapAreasScreen = lazyChunk(() =>
  import('../features/map-areas/map-areas-screen').then((m) => m.MapAreasScreen),
);

// Leaflet is its own chunk: the first screen does not wait for the map.
export const SitesMap = lazyChunk(() => import('../features/map/sites-map').then((m) => m.default));
export const SavedMapNote = lazyChunk(() =>
  import('../features/map-areas/saved-map-note').then((m) => m.SavedMapNote),
);
export const LocationPicker = lazyChunk(() =>
  import('../features/map/location-picker').then((m) => m.default),
);
export const SiteSpotMap = lazyChunk(() =>
  import('../features/map/site-spot-map').then((m) => m.default),
);
