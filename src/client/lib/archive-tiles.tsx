import type L from 'leaflet';
import { useEffect } from 'react';
import { useMap } from 'react-leaflet';
import { escapeHtml } from '#shared/escape-html';

/**
 * Mount inside a react-leaflet map: draws the agency's PMTiles archive at `url` (see
 * archive-layer). The layer and the pmtiles reader load on first use, not with the first screen.
 */
export function ArchiveTiles({ url }: { url: string }) {
  const map = useMap();
  useEffect(() => {
    let layer: L.GridLayer | null = null;
    let live = true;
    void Promise.all([import('./archive-layer'), import('./archive-reader')]).then(
      async ([{ createArchiveLayer }, { readArchiveInfo }]) => {
        const info = await readArchiveInfo(url);
        if (!live) return;
        layer = createArchiveLayer(url, {
          // Tiles load once a zoom has ended, as the tile server's layer does.
          updateWhenZooming: false,
          // As deep as a tile server's map goes; past the archive's deepest zoom its tiles are
          // drawn enlarged instead of not at all.
          maxZoom: 19,
          ...(info
            ? {
                minNativeZoom: info.minZoom,
                maxNativeZoom: info.maxZoom,
                // Leaflet writes attributions as HTML: the archive's own text is shown as text.
                ...(info.attribution ? { attribution: escapeHtml(info.attribution) } : {}),
              }
            : {}),
        }).addTo(map);
      },
    );
    return () => {
      live = false;
      layer?.remove();
    };
  }, [map, url]);
  return null;
}
