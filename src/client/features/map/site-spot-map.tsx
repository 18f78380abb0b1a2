import L from 'leaflet';
import { useEffect, useRef } from 'react';
import { useMap } from 'react-leaflet';
import type { LatLon } from '../../lib/geo';
import { BaseMap } from './base-map';
import './sites-map.css';
import { useI18n } from '../../lib/i18n';

export type SiteSpotMapProps = {
  site: LatLon & { code: string; name: string };
  /** The tablet's position, when known: drawn too, and framed with the site when near. */
  here: LatLon | null;
};

/** Beyond this (m), framing both would shrink the site's surroundings to nothing: site only. */
const FRAME_BOTH_WITHIN_M = 5_000;

/** The site's dot and the tablet's, drawn on the map's own SVG (nothing here takes a tap). */
function Spots({ site, here }: SiteSpotMapProps) {
  const map = useMap();
  useEffect(() => {
    const svg = L.svg();
    const dot = L.circleMarker([site.lat, site.lon], {
      renderer: svg,
      radius: 10,
      weight: 3,
      color: '#14532d',
      fillColor: '#22c55e',
      fillOpacity: 0.9,
      interactive: false,
    }).addTo(map);
    const you = here
      ? L.circleMarker([here.lat, here.lon], {
          renderer: svg,
          radius: 9,
          interactive: false,
          className: 'position-dot',
        }).addTo(map)
      : null;
    return () => {
      dot.remove();
      you?.remove();
    };
  }, [map, site.lat, site.lon, here]);
  // Framed once, when the position is first known: the technician's own zoom is kept after.
  const framed = useRef(false);
  useEffect(() => {
    if (!here || framed.current) return;
    framed.current = true;
    const both = L.latLngBounds([
      [site.lat, site.lon],
      [here.lat, here.lon],
    ]);
    if (map.distance(both.getSouthWest(), both.getNorthEast()) > FRAME_BOTH_WITHIN_M) return;
    map.fitBounds(both, { padding: [32, 32], maxZoom: 16, animate: false });
  }, [map, site.lat, site.lon, here]);
  return null;
}

/** A small map of one site (its page): where it is, and the tablet beside it when known. */
export default function SiteSpotMap({ site, here }: SiteSpotMapProps) {
  const intl = useI18n();
  // Its box (.site-spot-map, 240 px) is the site page's, around the loading part (record-parts).
  return (
    <BaseMap
      center={[site.lat, site.lon]}
      zoom={16}
      label={intl.formatMessage(
        { id: 'map.siteMap', defaultMessage: 'Map of {code} {name}' },
        { code: site.code, name: site.name },
      )}
      inForm
    >
      <Spots site={site} here={here} />
    </BaseMap>
  );
}
