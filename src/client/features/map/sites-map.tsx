import L from 'leaflet';
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { useMap, useMapEvents } from 'react-leaflet';
import { useDb } from '../../db/db-context';
import { accuracyLevel } from '../../lib/geo';
import { useSiteIndex } from '../../lib/site-index';
import { usePlaceAccuracyLimit, useWatchedPosition, type GpsFix } from '../../lib/use-gps';
import { DEFAULT_CENTER } from '../../lib/geo';
import { BaseMap } from './base-map';
import { NearestSites } from './nearest-sites';
import { SitePreview } from './site-preview';
import { SiteFeatures } from './site-features';
import type { MapTap } from './sites-layer';
import './sites-map.css';
import { useI18n } from '../../lib/i18n';

/**
 * Frames the sites once, when they are first known (not animated: see base-map.tsx), unless the
 * map was made framing them.
 */
function FitToSites({
  bounds,
  framed,
}: {
  bounds: [[number, number], [number, number]] | null;
  framed: boolean;
}) {
  const map = useMap();
  const fitted = useRef(framed);
  useEffect(() => {
    if (fitted.current || !bounds) return;
    fitted.current = true;
    map.fitBounds(bounds, { padding: [24, 24], maxZoom: 14, animate: false });
  }, [map, bounds]);
  return null;
}

/**
 * The tablet's position: a dot and its accuracy circle (metres on the ground). While following,
 * each fix re-centres the map; dragging the map by hand stops following.
 */
function PositionMarker({
  fix,
  following,
  enough,
  onHandPan,
}: {
  fix: GpsFix | null;
  following: boolean;
  enough: number;
  onHandPan: () => void;
}) {
  const map = useMap();
  const drawn = useRef<{ dot: L.CircleMarker; circle: L.Circle } | null>(null);
  useMapEvents({ dragstart: onHandPan });
  useEffect(() => {
    return () => {
      drawn.current?.dot.remove();
      drawn.current?.circle.remove();
      drawn.current = null;
    };
  }, [map]);
  useEffect(() => {
    if (!fix) {
      drawn.current?.dot.remove();
      drawn.current?.circle.remove();
      drawn.current = null;
      return;
    }
    const at: [number, number] = [fix.lat, fix.lon];
    const level = accuracyLevel(fix.accuracy, enough);
    if (!drawn.current) {
      // SVG, not the sites' canvas: the position is above the sites and never takes their taps.
      const svg = L.svg();
      drawn.current = {
        circle: L.circle(at, {
          renderer: svg,
          radius: fix.accuracy,
          interactive: false,
          className: `position-accuracy position-${level}`,
        }).addTo(map),
        dot: L.circleMarker(at, {
          renderer: svg,
          radius: 9,
          interactive: false,
          className: 'position-dot',
        }).addTo(map),
      };
    } else {
      drawn.current.circle.setLatLng(at).setRadius(fix.accuracy);
      drawn.current.dot.setLatLng(at);
    }
    drawn.current.circle.getElement()?.setAttribute('class', `position-accuracy position-${level}`);
    drawn.current.circle
      .getElement()
      ?.setAttribute('data-accuracy', String(Math.round(fix.accuracy)));
  }, [map, fix, enough]);
  useEffect(() => {
    if (!following || !fix) return;
    // Not animated: a pan left running when Sites is left is what base-map.tsx guards against.
    map.setView([fix.lat, fix.lon], Math.max(map.getZoom(), 16), { animate: false });
  }, [map, fix, following]);
  return null;
}

/** Hands the map out of MapContainer, for the preview drawn beside it. */
function MapHandle({ onMap }: { onMap: (map: L.Map | null) => void }) {
  const map = useMap();
  useEffect(() => {
    onMap(map);
    return () => onMap(null);
  }, [map, onMap]);
  return null;
}

/**
 * The agency's sites on a map, clustered when many are in view and grouped where markers would
 * overlap; tapping a site or a group shows a preview over the map (SitePreview), tapping a
 * cluster zooms in. The tablet's position with "Follow me" and the nearest sites below the map.
 */
export default function SitesMap({
  onSelect,
  overlay,
}: {
  onSelect: (localId: string) => void;
  /** Drawn inside the map (a react-leaflet child), e.g. the offline "no saved map here" note. */
  overlay?: ReactNode;
}) {
  const db = useDb();
  const intl = useI18n();
  const { index, summary, failure } = useSiteIndex(db.name);
  // Sites already known (Sites opened before): the map is made framing them.
  const [framedAtStart] = useState(() => summary?.bounds ?? null);
  const position = useWatchedPosition();
  const [enough] = usePlaceAccuracyLimit();
  const [following, setFollowing] = useState(false);
  const [tap, setTap] = useState<MapTap | null>(null);
  const map = useRef<L.Map | null>(null);
  const onMap = useCallback((m: L.Map | null) => {
    map.current = m;
  }, []);
  return (
    <>
      <div className="sites-map-frame">
        <BaseMap
          center={DEFAULT_CENTER}
          zoom={10}
          bounds={framedAtStart}
          // Tiles once the view is known: the sites' frame, or none to frame.
          tiles={summary !== null || failure !== null}
          staged
          label={intl.formatMessage({ id: 'map.sitesMap', defaultMessage: 'Map of sites' })}
        >
          {summary ? (
            <>
              <SiteFeatures index={index} version={summary.version} onTap={setTap} />
              <FitToSites bounds={summary.bounds} framed={framedAtStart !== null} />
            </>
          ) : null}
          <PositionMarker
            fix={position.fix}
            following={following}
            enough={enough}
            onHandPan={() => setFollowing(false)}
          />
          <MapHandle onMap={onMap} />
          {overlay}
        </BaseMap>
        {tap ? (
          <SitePreview
            tap={tap}
            here={position.fix}
            onOpen={onSelect}
            onChoose={(site) => setTap({ kind: 'site', site })}
            onZoom={() => {
              const m = map.current;
              if (m && tap.kind === 'group' && tap.zoomTo !== null)
                m.setView([tap.lat, tap.lon], Math.max(tap.zoomTo, m.getZoom() + 1));
              setTap(null);
            }}
            onClose={() => setTap(null)}
          />
        ) : null}
      </div>
      <NearestSites
        index={index}
        version={summary?.version}
        position={position}
        following={following}
        onFollow={(on) => {
          if (on) position.start();
          setFollowing(on);
        }}
        onSelect={onSelect}
      />
    </>
  );
}
