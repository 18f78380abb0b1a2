import L from 'leaflet';
import { useEffect, useMemo, useState } from 'react';
import { Marker, useMap, useMapEvents } from 'react-leaflet';
import { useDb } from '../../db/db-context';
import { DEFAULT_CENTER, mapTapMeters } from '../../lib/geo';
import { useSiteIndex } from '../../lib/site-index';
import { BaseMap } from './base-map';
import { SiteFeatures } from './site-features';
import './sites-map.css';
import { useI18n } from '../../lib/i18n';

export type LocationPickerProps = {
  position: [number, number] | null;
  /** The place tapped or dragged to, and how far (m) a place set by eye at that zoom may be off. */
  onPick: (lat: number, lon: number, withinMeters?: number) => void;
};

const pinIcon = L.divIcon({
  className: 'pin',
  html: '<span class="pin-dot"></span>',
  iconSize: [32, 32],
  iconAnchor: [16, 16],
});

function TapToPlace({ onPick }: { onPick: LocationPickerProps['onPick'] }) {
  const map = useMapEvents({
    click: (e) => onPick(e.latlng.lat, e.latlng.lng, mapTapMeters(e.latlng.lat, map.getZoom())),
  });
  return null;
}

/**
 * The agency's existing sites under the pin, shown only: a tap beside one still places the site.
 * Drawn from the task after the map's: opening New site makes the map and the form first.
 */
function ExistingSites() {
  const db = useDb();
  const { index, summary } = useSiteIndex(db.name);
  const [shown, setShown] = useState(false);
  useEffect(() => {
    const next = setTimeout(() => setShown(true), 0);
    return () => clearTimeout(next);
  }, []);
  return shown && summary ? <SiteFeatures index={index} version={summary.version} /> : null;
}

/** Keeps the pin in view when the coordinates are typed or come from the GPS. */
function FollowPin({ position }: { position: [number, number] | null }) {
  const map = useMap();
  useEffect(() => {
    if (position && !map.getBounds().contains(position))
      map.setView(position, Math.max(map.getZoom(), 15));
  }, [map, position]);
  return null;
}

/** The site's pin: dragged by hand, it moves the site. */
function Pin({ position, onPick }: LocationPickerProps & { position: [number, number] }) {
  const map = useMap();
  const intl = useI18n();
  const handlers = useMemo(
    () => ({
      dragend: (e: L.DragEndEvent) => {
        const ll = (e.target as L.Marker).getLatLng();
        onPick(ll.lat, ll.lng, mapTapMeters(ll.lat, map.getZoom()));
      },
    }),
    [map, onPick],
  );
  return (
    <Marker
      position={position}
      draggable
      icon={pinIcon}
      eventHandlers={handlers}
      title={intl.formatMessage({
        id: 'map.pinTitle',
        defaultMessage: 'Site location: drag to adjust',
      })}
    />
  );
}

/**
 * Place a site by tapping the map or dragging the pin, with the agency's sites drawn (a site is
 * not placed twice on one spot by someone who could not see the first).
 */
export default function LocationPicker({ position, onPick }: LocationPickerProps) {
  const intl = useI18n();
  return (
    <BaseMap
      center={position ?? DEFAULT_CENTER}
      zoom={position ? 15 : 10}
      label={intl.formatMessage({
        id: 'map.placeLabel',
        defaultMessage: 'Map: tap to place the site',
      })}
      inForm
    >
      <ExistingSites />
      <TapToPlace onPick={onPick} />
      <FollowPin position={position} />
      {position ? <Pin position={position} onPick={onPick} /> : null}
    </BaseMap>
  );
}
