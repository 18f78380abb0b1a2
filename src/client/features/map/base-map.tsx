import 'leaflet/dist/leaflet.css';
import L from 'leaflet';
import { useEffect, useState, type ReactNode } from 'react';
import { MapContainer, TileLayer, useMap } from 'react-leaflet';
import { cachedConfig, cachedTileCredit, useConfigVersion } from '../../lib/app-config';
import { archiveUrl } from '../../lib/archive-source';
import { ArchiveTiles } from '../../lib/archive-tiles';
import { useTemplateRefused } from '../../lib/refused-sources';
import { escapeHtml } from '#shared/escape-html';
import { useI18n } from '../../lib/i18n';
import { Banner } from '../../ui/banner';
import './flat-tiles';
import './paced-tile-loads';

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
 * Its children one task after the map itself: making a Leaflet map lays the page out (it reads
 * its size), and its layers are the same again; in one task they were the longest task of
 * opening Sites on a slow tablet.
 */
function Later({ children }: { children: ReactNode }) {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    const next = setTimeout(() => setShown(true), 0);
    return () => clearTimeout(next);
  }, []);
  return shown ? children : null;
}

/**
 * A Leaflet map drawn on canvas (thousands of sites stay smooth). Tiles come from TILE_URL; when
 * they fail (offline, no internet) the map keeps a neutral background and stays usable.
 */
export function BaseMap({
  center,
  zoom,
  bounds = null,
  tiles = true,
  staged = false,
  label,
  inForm = false,
  children,
}: {
  center: [number, number];
  zoom: number;
  /** [[south, west], [north, east]] to frame at first instead of `center` and `zoom`. */
  bounds?: [[number, number], [number, number]] | null;
  /**
   * Draw the tiles (default). False until the view is known spares making a view's worth of
   * tiles only to replace them when the map is framed.
   */
  tiles?: boolean;
  /** Add the tiles and children one task after the map (see Later). */
  staged?: boolean;
  label: string;
  /**
   * The map sits inside a form the technician scrolls through: the mouse wheel and one finger
   * scroll the page, not the map (pinch with two fingers, the zoom buttons, or drag the pin).
   */
  inForm?: boolean;
  children?: ReactNode;
}) {
  // Read again when this start's config arrives (the kept copy may name the old tile server).
  useConfigVersion();
  const { tileUrl } = cachedConfig();
  // The agency's map archive, when the BFF serves one, instead of the tile server.
  const archive = archiveUrl();
  const intl = useI18n();
  const refused = useTemplateRefused(tiles && !archive ? tileUrl : null);
  // The children before the tiles: React runs their effects in this order, so a child that
  // frames the map as it opens (FitToSites) has framed it when the tile layer makes its first
  // view's tiles. Added first, the tiles were made for the view before the frame and dropped in
  // the same task: 10 of the 25 made at the first opening of Sites (map-where-am-i.test.ts).
  const layers = (
    <>
      {children}
      {tiles && archive ? <ArchiveTiles url={archive} /> : null}
      {tiles && !archive ? (
        <TileLayer
          // A new layer for another server: its credit line too is the new one.
          key={tileUrl}
          url={tileUrl}
          // The office's credit line (TILE_ATTRIBUTION), plain text: Leaflet writes it as HTML.
          attribution={escapeHtml(cachedTileCredit())}
          crossOrigin="anonymous"
          // Tiles load once a zoom has ended, not at every frame of its animation (each batch of
          // tile requests is a long task on a slow tablet).
          updateWhenZooming={false}
        />
      ) : null}
    </>
  );
  return (
    <div className="map-region" role="region" aria-label={label}>
      {refused ? (
        <Banner
          tone="warn"
          actions={
            <button type="button" className="button" onClick={() => window.location.reload()}>
              {intl.formatMessage({ id: 'errorNotice.reload', defaultMessage: 'Reload' })}
            </button>
          }
        >
          {intl.formatMessage(
            {
              id: 'map.tilesRefused',
              defaultMessage:
                'This tablet’s copy of Trapline refuses the map’s tile server ({server}): the map is blank because of that, not the signal. Reload Trapline while online to take the office’s map settings.',
            },
            { server: /^https?:\/\/([^/]+)/.exec(tileUrl)?.[1] ?? tileUrl },
          )}
        </Banner>
      ) : null}
      <div className="map">
        <MapContainer
          {...(bounds
            ? { bounds, boundsOptions: { padding: [24, 24], maxZoom: 14 } }
            : { center, zoom })}
          preferCanvas
          // Tiles show when loaded instead of fading in: the fade re-set every new tile's opacity
          // in each frame for a quarter of a second, a task per frame on a slow tablet.
          fadeAnimation={false}
          className="map-canvas"
          scrollWheelZoom={!inForm}
          dragging={!(inForm && L.Browser.mobile)}
        >
          <EndZoomOnRemove />
          {staged ? <Later>{layers}</Later> : layers}
        </MapContainer>
      </div>
    </div>
  );
}
