import type { ReactNode } from 'react';
import { Link } from 'wouter';
import type { SiteCreate } from '#shared';
import type { SiteRow } from '../../db/database';
import { useLookups } from '../../db/use-lookups';
import { formatDate } from '../../lib/dates';
import {
  bearingDegrees,
  compassPoint,
  distanceMeters,
  formatDistance,
  type LatLon,
} from '../../lib/geo';
import { useWatchedPosition } from '../../lib/use-gps';
import { useSite, useSiteCollections } from './use-sites';

/** What the site page lends the map of the site (lazy-loaded by the app). */
export type SiteSpotProps = {
  site: LatLon & { code: string; name: string };
  /** The tablet's position, when known. */
  here: LatLon | null;
};

function totalOf(data: Record<string, unknown>): number {
  const rows = (data.arthropods as { num_count: number }[] | undefined) ?? [];
  return rows.reduce((sum, r) => sum + (r.num_count ?? 0), 0);
}

/**
 * A site's details, its place on a small map with the tablet's distance and direction from it
 * (when the tablet's position is known: location already allowed, or "Show my distance"), and
 * its recent collections.
 */
export function SiteDetailScreen({
  localId,
  renderBadge,
  renderMap,
  renderHistory,
}: {
  localId: string;
  renderBadge?: (row: SiteRow) => ReactNode;
  renderMap?: (props: SiteSpotProps) => ReactNode;
  /**
   * The record's History panel (composed in app/), given its server id (null: not sent yet) and
   * the server's `updated` it last saw (the panel reads again when that moves).
   */
  renderHistory?: (serverId: number | null, serverUpdated: string | null) => ReactNode;
}) {
  const site = useSite(localId);
  const collections = useSiteCollections(localId);
  const { lookups } = useLookups();
  const position = useWatchedPosition();
  if (site === undefined) return <p>Loading…</p>;
  if (site === null) return <p role="alert">This site is not on this tablet.</p>;
  const data = site.data as Partial<SiteCreate>;
  const [lon, lat] = data.shape?.coordinates ?? [];
  const precision = lookups.coordinate_precision.find((p) => p.id === data.coordinate_precision);
  const place =
    typeof lat === 'number' && typeof lon === 'number' && Number.isFinite(lat + lon)
      ? { lat, lon }
      : null;
  const here = position.fix;
  return (
    <section className="screen">
      <div className="screen-head">
        <h1>
          {site.code} {site.name}
        </h1>
        {renderBadge?.(site)}
      </div>
      <dl className="facts">
        <dt>Coordinates</dt>
        <dd>
          {lat}, {lon} {precision ? `(${precision.name})` : null}
        </dd>
        {place ? (
          <>
            <dt>From you</dt>
            <dd data-testid="site-distance">
              {here ? (
                `${formatDistance(distanceMeters(here, place))} ${compassPoint(bearingDegrees(here, place))} (your position ±${Math.round(here.accuracy)} m)`
              ) : position.failure === 'denied' ? (
                'Location permission was refused: allow it in the browser settings to see how far you are.'
              ) : position.failure ? (
                'Your position is not available here yet.'
              ) : position.watching ? (
                'Finding your position…'
              ) : (
                <button type="button" className="button" onClick={position.start}>
                  Show my distance
                </button>
              )}
            </dd>
          </>
        ) : null}
        {data.address_1 ? (
          <>
            <dt>Address</dt>
            <dd>
              {[data.address_1, data.address_2, data.city, data.postal_code]
                .filter(Boolean)
                .join(', ')}
            </dd>
          </>
        ) : null}
        {data.site_population ? (
          <>
            <dt>Population</dt>
            <dd>{data.site_population}</dd>
          </>
        ) : null}
        {data.comments ? (
          <>
            <dt>Comments</dt>
            <dd>{data.comments}</dd>
          </>
        ) : null}
      </dl>
      {place && renderMap
        ? renderMap({ site: { ...place, code: site.code, name: site.name }, here })
        : null}
      <div className="row">
        <Link href={`/collections/new?site=${site.localId}`} className="button button-primary">
          New collection here
        </Link>
        {site.code !== '000000' ? (
          <Link href={`/sites/${site.localId}/edit`} className="button">
            Edit site
          </Link>
        ) : null}
      </div>
      <h2>Recent collections</h2>
      {collections && collections.length > 0 ? (
        <ul className="list" aria-label="Recent collections">
          {collections.map((c) => (
            <li key={c.localId}>
              <Link href={`/collections/${c.localId}`} className="list-item">
                {formatDate(c.collectionDate, Boolean(c.data.collection_date_date_only))} ·{' '}
                {totalOf(c.data)} counted
              </Link>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">No collections at this site on this tablet.</p>
      )}
      {renderHistory?.(site.serverId, site.baseUpdated)}
    </section>
  );
}
