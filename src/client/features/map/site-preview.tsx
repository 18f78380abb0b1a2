import { useEffect, useRef } from 'react';
import { Link } from 'wouter';
import type { IntlShape } from 'react-intl';
import { bearingDegrees, compassPoint, distanceMeters, type LatLon } from '../../lib/geo';
import { compassIn, distanceIn, useI18n } from '../../lib/i18n';
import type { IndexedSite } from '../../lib/site-index';
import type { MapTap } from './sites-layer';

/** "420 m NE of you", or nothing while the tablet's position is unknown. */
function fromYou(intl: IntlShape, site: IndexedSite, here: LatLon | null): string | null {
  if (!here || !Number.isFinite(site.lat)) return null;
  return intl.formatMessage(
    { id: 'map.fromYou', defaultMessage: '{distance} {direction} of you' },
    {
      distance: distanceIn(intl, distanceMeters(here, site)),
      direction: compassIn(intl, compassPoint(bearingDegrees(here, site))),
    },
  );
}

/**
 * What a tap on the Sites map chose, shown over the bottom of the map before anything opens: a
 * gloved tap that caught the wrong site costs a glance, not a trip to the wrong site's page.
 * One site: its code, name and distance from the tablet, with big "Open" and "New collection
 * here"; a group: its sites to choose from (and "Zoom in" where they come apart).
 */
export function SitePreview({
  tap,
  here,
  onOpen,
  onChoose,
  onZoom,
  onClose,
}: {
  tap: MapTap;
  /** The tablet's position, when known. */
  here: LatLon | null;
  onOpen: (localId: string) => void;
  onChoose: (site: IndexedSite) => void;
  onZoom: () => void;
  onClose: () => void;
}) {
  const box = useRef<HTMLElement>(null);
  const intl = useI18n();
  const t = intl.formatMessage;
  const close = t({ id: 'map.close', defaultMessage: 'Close' });
  const sitesHere = (count: number) =>
    t(
      {
        id: 'map.sitesHere',
        defaultMessage: '{count, plural, one {# site here} other {# sites here}}',
      },
      { count },
    );
  // The preview takes the focus (a keyboard or screen-reader user is told what the tap chose).
  useEffect(() => {
    box.current?.focus({ preventScroll: true });
  }, [tap]);
  return (
    <section
      ref={box}
      className="site-preview"
      aria-label={
        tap.kind === 'site'
          ? t({ id: 'map.preview', defaultMessage: 'Site preview' })
          : t({ id: 'map.sitesHereName', defaultMessage: 'Sites here' })
      }
      tabIndex={-1}
      onKeyDown={(e) => {
        if (e.key === 'Escape') onClose();
      }}
    >
      {tap.kind === 'site' ? (
        <>
          <p className="site-preview-title">
            <span className="code">{tap.site.code}</span> {tap.site.name}
            {tap.site.state !== 'synced' ? (
              <span className="tag">
                {t({ id: 'siteList.notSent', defaultMessage: 'not sent' })}
              </span>
            ) : null}
          </p>
          {fromYou(intl, tap.site, here) ? (
            <p className="site-preview-distance" data-testid="preview-distance">
              {fromYou(intl, tap.site, here)}
            </p>
          ) : null}
          <div className="site-preview-actions">
            <button
              type="button"
              className="button button-primary"
              onClick={() => onOpen(tap.site.id)}
            >
              {t({ id: 'map.open', defaultMessage: 'Open' })}
            </button>
            <Link href={`/collections/new?site=${tap.site.id}`} className="button">
              {t({ id: 'siteDetail.newCollection', defaultMessage: 'New collection here' })}
            </Link>
            <button type="button" className="button button-quiet" onClick={onClose}>
              {close}
            </button>
          </div>
        </>
      ) : (
        <>
          <p className="site-preview-title">
            {t(
              {
                id: 'map.chooseOne',
                defaultMessage:
                  '{count, plural, one {# site here} other {# sites here}}: choose one',
              },
              { count: tap.sites.length },
            )}
          </p>
          <ul className="site-preview-list" aria-label={sitesHere(tap.sites.length)}>
            {tap.sites.map((site) => (
              <li key={site.id}>
                <button type="button" className="button" onClick={() => onChoose(site)}>
                  <span className="code">{site.code}</span> <span>{site.name}</span>
                  {fromYou(intl, site, here) ? (
                    <span className="nearest-distance"> {fromYou(intl, site, here)}</span>
                  ) : null}
                </button>
              </li>
            ))}
          </ul>
          <div className="site-preview-actions">
            {tap.zoomTo !== null ? (
              <button type="button" className="button" onClick={onZoom}>
                {t({ id: 'map.zoomIn', defaultMessage: 'Zoom in on them' })}
              </button>
            ) : null}
            <button type="button" className="button button-quiet" onClick={onClose}>
              {close}
            </button>
          </div>
        </>
      )}
    </section>
  );
}
