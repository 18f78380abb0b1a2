import { useEffect, useState } from 'react';
import { compassPoint, distanceMeters, formatDistance, type LatLon } from '../../lib/geo';
import type { NearbySite, SiteIndex } from '../../lib/site-index';
import type { GpsFailure, WatchedPosition } from '../../lib/use-gps';

/** How many nearest sites are listed. */
const NEAREST = 5;
/** The list is asked again when the tablet has moved this far (m): GPS jitter does not re-ask. */
const MOVED_M = 10;

/** Why there is no position, in this screen's words (the forms' words speak of typing one). */
const NO_POSITION: Record<GpsFailure, string> = {
  denied: 'Location permission was refused: allow it in the browser settings to see where you are.',
  unavailable: 'No position is available here yet.',
  timeout: 'The GPS is taking long to answer.',
  'no-gps': 'This device has no GPS.',
};

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
          Where am I
        </h2>
        {position.watching ? null : (
          <button type="button" className="button" onClick={position.start}>
            Show my position
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
          {following ? 'Follow me: on' : 'Follow me'}
        </button>
        {fix ? (
          <span data-testid="position-accuracy" className="muted">
            Your position ±{Math.round(fix.accuracy)} m{following ? ', map following' : ''}
          </span>
        ) : position.watching && !position.failure ? (
          <span className="muted">Finding your position…</span>
        ) : null}
      </div>
      {position.failure ? (
        <p className="field-hint">
          {NO_POSITION[position.failure]}
          {fix ? ' The last position found is shown.' : ''}
        </p>
      ) : null}
      {fix && nearest ? (
        nearest.length === 0 ? (
          <p className="muted">No site with a position yet.</p>
        ) : (
          <ol className="list nearest-sites" aria-label="Nearest sites">
            {nearest.map(({ site, meters, bearing }) => (
              <li key={site.id}>
                <button type="button" className="list-item" onClick={() => onSelect(site.id)}>
                  <span className="code">{site.code}</span> <span>{site.name}</span>{' '}
                  <span className="nearest-distance">
                    {formatDistance(meters)} {compassPoint(bearing)}
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
