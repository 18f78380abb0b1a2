import L from 'leaflet';
import { useEffect, useRef } from 'react';
import { useMap, useMapEvents } from 'react-leaflet';
import { accuracyLevel } from '../../lib/geo';
import type { GpsFix } from '../../lib/use-gps';
import { moveMap } from './move-map';

/**
 * The tablet's position: a dot and its accuracy circle (metres on the ground). While following,
 * each fix re-centres the map; dragging the map by hand stops following.
 */
export function PositionMarker({
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
    moveMap(() => map.setView([fix.lat, fix.lon], Math.max(map.getZoom(), 16), { animate: false }));
  }, [map, fix, following]);
  return null;
}
