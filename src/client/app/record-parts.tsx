/**
 * The parts app/ lends the record screens (composed here: a feature never imports another):
 * the sync badge, the History panel and the maps. Each part that fails leaves its screen, and
 * what was typed in it, in place. Module-level functions, so a screen's props stay the same
 * across renders.
 */
import { Suspense, type ReactNode } from 'react';
import type { LocalRecord } from '../db/database';
import type { LocationPickerProps } from '../features/sites/site-form';
import type { SiteSpotProps } from '../features/sites/site-detail-screen';
import { StoredRecordSyncBadge } from '../features/sync-status';
import type { HistoryEntity } from '#shared/schemas/history';
import { PartErrorBoundary } from './error-boundaries';
import { HistoryPanel, LocationPicker, SiteSpotMap } from './lazy-screens';
import { MapPart } from './route-screens';

export const badge = (row: LocalRecord<unknown, unknown>): ReactNode => (
  <StoredRecordSyncBadge record={row} />
);

/** The History panel under a record screen. */
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
export const HISTORY = {
  site: historyOf('site'),
  collection: historyOf('collection'),
  pool: historyOf('pool'),
  test: historyOf('test'),
};

/** The site form's map to place a site on. */
export const picker = (props: LocationPickerProps) => (
  <MapPart>
    <LocationPicker {...props} />
  </MapPart>
);

/**
 * The small map of one site on its page. Its box is outside the lazy part, so "Loading map…" takes
 * the map's own size: a fallback of the big maps' size shrank when the map came and moved New
 * collection here up under a finger about to tap it (in loaded e2e runs the tap met the map).
 */
export const spot = (props: SiteSpotProps) => (
  <div className="site-spot-map">
    <MapPart>
      <SiteSpotMap {...props} />
    </MapPart>
  </div>
);
