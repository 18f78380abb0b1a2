import type { ReactNode } from 'react';
import { Link } from 'wouter';
import type { SiteCreate } from '#shared';
import type { SiteRow } from '../../db/database';
import { useLookups } from '../../db/use-lookups';
import { bearingDegrees, compassPoint, distanceMeters, type LatLon } from '../../lib/geo';
import { compassIn, dateIn, distanceIn, useI18n } from '../../lib/i18n';
import { useWatchedPosition } from '../../lib/use-gps';
import { useSite, useSiteCollections } from './use-sites';
import type { RenderHistory } from '../../ui/render-history';

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
  renderHistory?: RenderHistory;
}) {
  const site = useSite(localId);
  const collections = useSiteCollections(localId);
  const { lookups } = useLookups();
  const position = useWatchedPosition();
  const intl = useI18n();
  const t = intl.formatMessage;
  if (site === undefined) return <p>{t({ id: 'sites.loading', defaultMessage: 'Loading…' })}</p>;
  if (site === null)
    return (
      <p role="alert">
        {t({ id: 'sites.notOnTablet', defaultMessage: 'This site is not on this tablet.' })}
      </p>
    );
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
        <dt>{t({ id: 'siteForm.coordinates', defaultMessage: 'Coordinates' })}</dt>
        <dd>
          {lat}, {lon} {precision ? `(${precision.name})` : null}
        </dd>
        {place ? (
          <>
            <dt>{t({ id: 'siteDetail.fromYou', defaultMessage: 'From you' })}</dt>
            <dd data-testid="site-distance">
              {here ? (
                t(
                  {
                    id: 'siteDetail.distance',
                    defaultMessage: '{distance} {direction} (your position ±{accuracy, number} m)',
                  },
                  {
                    distance: distanceIn(intl, distanceMeters(here, place)),
                    direction: compassIn(intl, compassPoint(bearingDegrees(here, place))),
                    accuracy: Math.round(here.accuracy),
                  },
                )
              ) : position.failure === 'denied' ? (
                t({
                  id: 'siteDetail.denied',
                  defaultMessage:
                    'Location permission was refused: allow it in the browser settings to see how far you are.',
                })
              ) : position.failure ? (
                t({
                  id: 'siteDetail.unavailable',
                  defaultMessage: 'Your position is not available here yet.',
                })
              ) : position.watching ? (
                t({ id: 'siteDetail.finding', defaultMessage: 'Finding your position…' })
              ) : (
                <button type="button" className="button" onClick={position.start}>
                  {t({ id: 'siteDetail.showDistance', defaultMessage: 'Show my distance' })}
                </button>
              )}
            </dd>
          </>
        ) : null}
        {data.address_1 ? (
          <>
            <dt>{t({ id: 'siteForm.address', defaultMessage: 'Address' })}</dt>
            <dd>
              {[data.address_1, data.address_2, data.city, data.postal_code]
                .filter(Boolean)
                .join(', ')}
            </dd>
          </>
        ) : null}
        {data.site_population ? (
          <>
            <dt>{t({ id: 'siteForm.population', defaultMessage: 'Population' })}</dt>
            <dd>
              {t(
                {
                  id: 'siteForm.populationValue',
                  defaultMessage:
                    '{p, select, Urban {Urban} Suburban {Suburban} Rural {Rural} other {{p}}}',
                },
                { p: data.site_population },
              )}
            </dd>
          </>
        ) : null}
        {data.comments ? (
          <>
            <dt>{t({ id: 'form.comments', defaultMessage: 'Comments' })}</dt>
            <dd>{data.comments}</dd>
          </>
        ) : null}
      </dl>
      {place && renderMap
        ? renderMap({ site: { ...place, code: site.code, name: site.name }, here })
        : null}
      <div className="row">
        <Link href={`/collections/new?site=${site.localId}`} className="button button-primary">
          {t({ id: 'siteDetail.newCollection', defaultMessage: 'New collection here' })}
        </Link>
        {site.code !== '000000' ? (
          <Link href={`/sites/${site.localId}/edit`} className="button">
            {t({ id: 'siteDetail.edit', defaultMessage: 'Edit site' })}
          </Link>
        ) : null}
      </div>
      <h2>{t({ id: 'siteDetail.recent', defaultMessage: 'Recent collections' })}</h2>
      {collections && collections.length > 0 ? (
        <ul
          className="list"
          aria-label={t({ id: 'siteDetail.recent', defaultMessage: 'Recent collections' })}
        >
          {collections.map((c) => (
            <li key={c.localId}>
              <Link href={`/collections/${c.localId}`} className="list-item">
                {t(
                  { id: 'siteDetail.collectionLine', defaultMessage: '{day} · {total} counted' },
                  {
                    day: dateIn(intl, c.collectionDate, Boolean(c.data.collection_date_date_only)),
                    total: intl.formatNumber(totalOf(c.data)),
                  },
                )}
              </Link>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">
          {t({
            id: 'siteDetail.noCollections',
            defaultMessage: 'No collections at this site on this tablet.',
          })}
        </p>
      )}
      {renderHistory?.(site.serverId, site.baseUpdated)}
    </section>
  );
}
