import { useEffect, useRef } from 'react';
import { useMap } from 'react-leaflet';
import { moveMap } from './move-map';

/**
 * Frames the sites once, when they are first known (not animated: see base-map.tsx), unless the
 * map was made framing them.
 */
export function FitToSites({
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
    moveMap(() => map.fitBounds(bounds, { padding: [24, 24], maxZoom: 14, animate: false }));
  }, [map, bounds]);
  return null;
}
