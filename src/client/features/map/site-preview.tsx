import { useEffect, useRef } from 'react';
import { Link } from 'wouter';
import {
  bearingDegrees,
  compassPoint,
  distanceMeters,
  formatDistance,
  type LatLon,
} from '../../lib/geo';
import type { IndexedSite } from '../../lib/site-index';
import type { MapTap } from './sites-layer';

/** "420 m NE of you", or nothing while the tablet's position is unknown. */
function fromYou(site: IndexedSite, here: LatLon | null): string | null {
  if (!here || !Number.isFinite(site.lat)) return null;
  return `${formatDistance(distanceMeters(here, site))} ${compassPoint(bearingDegrees(here, site))} of you`;
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
  // The preview takes the focus (a keyboard or screen-reader user is told what the tap chose).
  useEffect(() => {
    box.current?.focus({ preventScroll: true });
  }, [tap]);
  return (
    <section
      ref={box}
      className="site-preview"
      aria-label={tap.kind === 'site' ? 'Site preview' : 'Sites here'}
      tabIndex={-1}
      onKeyDown={(e) => {
        if (e.key === 'Escape') onClose();
      }}
    >
      {tap.kind === 'site' ? (
        <>
          <p className="site-preview-title">
            <span className="code">{tap.site.code}</span> {tap.site.name}
            {tap.site.state !== 'synced' ? <span className="tag">not sent</span> : null}
          </p>
          {fromYou(tap.site, here) ? (
            <p className="site-preview-distance" data-testid="preview-distance">
              {fromYou(tap.site, here)}
            </p>
          ) : null}
          <div className="site-preview-actions">
            <button
              type="button"
              className="button button-primary"
              onClick={() => onOpen(tap.site.id)}
            >
              Open
            </button>
            <Link href={`/collections/new?site=${tap.site.id}`} className="button">
              New collection here
            </Link>
            <button type="button" className="button button-quiet" onClick={onClose}>
              Close
            </button>
          </div>
        </>
      ) : (
        <>
          <p className="site-preview-title">{tap.sites.length} sites here: choose one</p>
          <ul className="site-preview-list" aria-label={`${tap.sites.length} sites here`}>
            {tap.sites.map((site) => (
              <li key={site.id}>
                <button type="button" className="button" onClick={() => onChoose(site)}>
                  <span className="code">{site.code}</span> <span>{site.name}</span>
                  {fromYou(site, here) ? (
                    <span className="nearest-distance"> {fromYou(site, here)}</span>
                  ) : null}
                </button>
              </li>
            ))}
          </ul>
          <div className="site-preview-actions">
            {tap.zoomTo !== null ? (
              <button type="button" className="button" onClick={onZoom}>
                Zoom in on them
              </button>
            ) : null}
            <button type="button" className="button button-quiet" onClick={onClose}>
              Close
            </button>
          </div>
        </>
      )}
    </section>
  );
}
