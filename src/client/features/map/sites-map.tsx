import type L from 'leaflet';
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { useMap } from 'react-leaflet';
import { useDb } from '../../db/db-context';
import { useSiteIndex } from '../../lib/site-index';
import { usePlaceAccuracyLimit, useWatchedPosition } from '../../lib/use-gps';
import { DEFAULT_CENTER } from '../../lib/geo';
import { BaseMap } from './base-map';
import { FitToSites } from './fit-to-sites';
import { NearestSites } from './nearest-sites';
import { PositionMarker } from './position-marker';
import { SitePreview } from './site-preview';
import { SiteFeatures } from './site-features';
import type { MapTap } from './sites-layer';
import './sites-map.css';
import { useI18n } from '../../lib/i18n';

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
              {/* Framed first: the features' first ask of the index is for the framed view. */}
              <FitToSites bounds={summary.bounds} framed={framedAtStart !== null} />
              <SiteFeatures index={index} version={summary.version} onTap={setTap} />
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
