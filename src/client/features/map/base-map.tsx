import 'leaflet/dist/leaflet.css';
import L from 'leaflet';
import { useEffect, type ReactNode } from 'react';
import { MapContainer, TileLayer, useMap } from 'react-leaflet';
import { cachedConfig } from '../../lib/app-config';

/** Sacramento: the demo agency's area, used until a site or a position gives a better centre. */
export const DEFAULT_CENTER: [number, number] = [38.58, -121.49];

/**
 * Leaflet 1.9.4 ends a zoom animation in a 250 ms timer that `map.remove()` does not cancel; when
 * the screen is left meanwhile, the timer reads the removed map pane and throws "Cannot read
 * properties of undefined (reading '_leaflet_pos')" (Leaflet issue #9575). Once the map is being
 * removed (its `unload` event), the animation is marked finished so the timer does nothing.
 */
function EndZoomOnRemove() {
  const map = useMap();
  useEffect(() => {
    const settle = () => {
      (map as unknown as { _animatingZoom: boolean })._animatingZoom = false;
    };
    // Not taken off on unmount: this component's cleanup may run before the map's own removal.
    map.once('unload', settle);
  }, [map]);
  return null;
}

/**
 * A Leaflet map drawn on canvas (thousands of sites stay smooth). Tiles come from TILE_URL; when
 * they fail (offline, no internet) the map keeps a neutral background and stays usable.
 */
export function BaseMap({
  center,
  zoom,
  label,
  inForm = false,
  children,
}: {
  center: [number, number];
  zoom: number;
  label: string;
  /**
   * The map sits inside a form the technician scrolls through: the mouse wheel and one finger
   * scroll the page, not the map (pinch with two fingers, the zoom buttons, or drag the pin).
   */
  inForm?: boolean;
  children?: ReactNode;
}) {
  const { tileUrl } = cachedConfig();
  return (
    <div className="map" role="region" aria-label={label}>
      <MapContainer
        center={center}
        zoom={zoom}
        preferCanvas
        className="map-canvas"
        scrollWheelZoom={!inForm}
        dragging={!(inForm && L.Browser.mobile)}
      >
        <TileLayer
          url={tileUrl}
          attribution="&copy; OpenStreetMap contributors"
          crossOrigin="anonymous"
          // Tiles load once a zoom has ended, not at every frame of its animation (each batch of
          // tile requests is a long task on a slow tablet).
          updateWhenZooming={false}
        />
        <EndZoomOnRemove />
        {children}
      </MapContainer>
    </div>
  );
}
