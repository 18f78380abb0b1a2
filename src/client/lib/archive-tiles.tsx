import type L from 'leaflet';
import { useEffect } from 'react';
import { useMap } from 'react-leaflet';

/**
 * Mount inside a react-leaflet map: draws the agency's PMTiles archive at `url` (see
 * archive-layer). The layer and the pmtiles reader load on first use, not with the first screen.
 */
export function ArchiveTiles({ url }: { url: string }) {
  const map = useMap();
  useEffect(() => {
    let layer: L.GridLayer | null = null;
    let live = true;
    void import('./archive-layer').then(({ createArchiveLayer }) => {
      if (!live) return;
      // Tiles load once a zoom has ended, as the tile server's layer does.
      layer = createArchiveLayer(url, { updateWhenZooming: false }).addTo(map);
    });
    return () => {
      live = false;
      layer?.remove();
    };
  }, [map, url]);
  return null;
}
