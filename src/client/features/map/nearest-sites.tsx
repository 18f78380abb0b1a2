import { useEffect, useState } from 'react';
import { compassPoint, distanceMeters, type LatLon } from '../../lib/geo';
import { compassIn, distanceIn, useI18n } from '../../lib/i18n';
import type { NearbySite, SiteIndex } from '../../lib/site-index';
import type { GpsFailure, WatchedPosition } from '../../lib/use-gps';

/** How many nearest sites are listed. */
const NEAREST = 5;
/** The list is asked again when the tablet has moved this far (m): GPS jitter does not re-ask. */
const MOVED_M = 10;

/**
 * Where am I: "Show my position" / "Follow me", the fix's accuracy, and the nearest sites with
 * their distance and compass direction from the tablet ("420 m NE"), each opening its site.
 */
export function NearestSites({
  index,
  version,
  position,
  following,
  onFollow,
  onSelect,
}: {
  index: SiteIndex;
  version: number | undefined;
  position: WatchedPosition;
  following: boolean;
  onFollow: (on: boolean) => void;
  onSelect: (localId: string) => void;
}) {
  const { fix } = position;
  const intl = useI18n();
  const t = intl.formatMessage;
  /** Why there is no position, in this screen's words (the forms' words speak of typing one). */
  const noPosition = (failure: GpsFailure) =>
    t(
      {
        id: 'map.noPosition',
        defaultMessage:
          '{failure, select, denied {Location permission was refused: allow it in the browser settings to see where you are.} timeout {The GPS is taking long to answer.} nogps {This device has no GPS.} other {No position is available here yet.}}',
      },
      // An ICU select key is a word: 'no-gps' is said as 'nogps'.
      { failure: failure.replace('-', '') },
    );
  // The place the list was computed for: moves under MOVED_M keep it.
  const [anchor, setAnchor] = useState<LatLon | null>(null);
  const [nearest, setNearest] = useState<NearbySite[] | null>(null);
  const moved = fix !== null && (anchor === null || distanceMeters(anchor, fix) >= MOVED_M);
  if (moved) setAnchor({ lat: fix.lat, lon: fix.lon });
  useEffect(() => {
    if (!anchor || version === undefined) return;
    let live = true;
    void index.nearest(anchor, NEAREST).then((found) => {
      if (live && found) setNearest(found);
    });
    return () => {
      live = false;
    };
  }, [index, anchor, version]);

  return (
    <section className="where-am-i" aria-labelledby="where-am-i-title">
      <div className="row wrap">
        <h2 id="where-am-i-title" className="where-am-i-title">
          {t({ id: 'map.whereAmI', defaultMessage: 'Where am I' })}
        </h2>
        {position.watching ? null : (
          <button type="button" className="button" onClick={position.start}>
            {t({ id: 'map.showPosition', defaultMessage: 'Show my position' })}
          </button>
        )}
        <button
          type="button"
          className={following ? 'button button-primary' : 'button'}
          aria-pressed={following}
          onClick={() => onFollow(!following)}
        >
          {/* In words too: in sunlight the button's colour alone did not show it was on. The
              name still starts "Follow me", as the pressed state is read with it. */}
          {following
            ? t({ id: 'map.followOn', defaultMessage: 'Follow me: on' })
            : t({ id: 'map.follow', defaultMessage: 'Follow me' })}
        </button>
        {fix ? (
          <span data-testid="position-accuracy" className="muted">
            {t(
              {
                id: 'map.yourPosition',
                defaultMessage:
                  'Your position ±{accuracy, number} m{following, select, yes {, map following} other {}}',
              },
              { accuracy: Math.round(fix.accuracy), following: following ? 'yes' : 'no' },
            )}
          </span>
        ) : position.watching && !position.failure ? (
          <span className="muted">
            {t({ id: 'siteDetail.finding', defaultMessage: 'Finding your position…' })}
          </span>
        ) : null}
      </div>
      {position.failure ? (
        <p className="field-hint">
          {noPosition(position.failure)}
          {fix
            ? ` ${t({ id: 'map.lastPosition', defaultMessage: 'The last position found is shown.' })}`
            : ''}
        </p>
      ) : null}
      {fix && nearest ? (
        nearest.length === 0 ? (
          <p className="muted">
            {t({ id: 'map.noPlacedSite', defaultMessage: 'No site with a position yet.' })}
          </p>
        ) : (
          <ol
            className="list nearest-sites"
            aria-label={t({ id: 'map.nearest', defaultMessage: 'Nearest sites' })}
          >
            {nearest.map(({ site, meters, bearing }) => (
              <li key={site.id}>
                <button type="button" className="list-item" onClick={() => onSelect(site.id)}>
                  <span className="code">{site.code}</span> <span>{site.name}</span>{' '}
                  <span className="nearest-distance">
                    {distanceIn(intl, meters)} {compassIn(intl, compassPoint(bearing))}
                  </span>
                </button>
              </li>
            ))}
          </ol>
        )
      ) : null}
    </section>
  );
}
