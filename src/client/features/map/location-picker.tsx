import L from 'leaflet';
import { useEffect, useMemo } from 'react';
import { Marker, useMap, useMapEvents } from 'react-leaflet';
import { DEFAULT_CENTER } from '../../lib/geo';
import { BaseMap } from './base-map';

export type LocationPickerProps = {
  position: [number, number] | null;
  onPick: (lat: number, lon: number) => void;
};

const pinIcon = L.divIcon({
  className: 'pin',
  html: '<span class="pin-dot"></span>',
  iconSize: [32, 32],
  iconAnchor: [16, 16],
});

function TapToPlace({ onPick }: { onPick: LocationPickerProps['onPick'] }) {
  useMapEvents({ click: (e) => onPick(e.latlng.lat, e.latlng.lng) });
  return null;
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

/** Place a site by tapping the map or dragging the pin. */
export default function LocationPicker({ position, onPick }: LocationPickerProps) {
  const handlers = useMemo(
    () => ({
      dragend: (e: L.DragEndEvent) => {
        const ll = (e.target as L.Marker).getLatLng();
        onPick(ll.lat, ll.lng);
      },
    }),
    [onPick],
  );
  return (
    <BaseMap
      center={position ?? DEFAULT_CENTER}
      zoom={position ? 15 : 10}
      label="Map: tap to place the site"
      inForm
    >
      <TapToPlace onPick={onPick} />
      <FollowPin position={position} />
      {position ? (
        <Marker
          position={position}
          draggable
          icon={pinIcon}
          eventHandlers={handlers}
          title="Site location: drag to adjust"
        />
      ) : null}
    </BaseMap>
  );
}
