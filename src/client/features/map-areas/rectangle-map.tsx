import 'leaflet/dist/leaflet.css';
import L from 'leaflet';
import { useEffect, useRef, useState } from 'react';
import { MapContainer, Rectangle, TileLayer, useMap } from 'react-leaflet';
import { escapeHtml } from '#shared/escape-html';
import { cachedTileCredit } from '../../lib/app-config';
import { ARCHIVE_TILES, archiveUrl } from '../../lib/archive-source';
import { ArchiveTiles } from '../../lib/archive-tiles';
import { DEFAULT_CENTER } from '../../lib/geo';
import { useI18n } from '../../lib/i18n';
import { MAX_LATITUDE, type Bbox } from './tile-math';

/** A drag shorter than this (screen pixels, either side) is a tap, not a rectangle. */
const MIN_DRAG_PX = 8;
/** Not interactive: a drag that starts on the area draws a new one instead of hitting its path. */
const AREA_STYLE: L.PathOptions = {
  color: '#14532d',
  weight: 3,
  fillOpacity: 0.12,
  interactive: false,
};
const DRAFT_STYLE: L.PathOptions = { ...AREA_STYLE, dashArray: '6 6' };

/** Edges typed to 5 decimals (about a metre) are the same area as the drawn ones they came from. */
const sameArea = (a: Bbox, b: Bbox) =>
  (['north', 'south', 'west', 'east'] as const).every((k) => Math.abs(a[k] - b[k]) < 1e-5);

const toLatLngBounds = (b: Bbox) => L.latLngBounds([b.south, b.west], [b.north, b.east]);

/** Leaflet bounds as an area: edges kept inside the tile grid (a panned map can run past ±180°). */
function toBbox(bounds: L.LatLngBounds): Bbox {
  const clamp = (v: number, limit: number) => Math.max(-limit, Math.min(limit, v));
  return {
    north: clamp(bounds.getNorth(), MAX_LATITUDE),
    south: clamp(bounds.getSouth(), MAX_LATITUDE),
    west: clamp(bounds.getWest(), 180),
    east: clamp(bounds.getEast(), 180),
  };
}

/**
 * While `drawing`, one drag across the map (mouse, pen or finger) draws the rectangle: the map
 * stops panning, a dashed rectangle follows the pointer, and releasing it ends the drawing.
 * Pointer events, not Leaflet's mouse events, so a finger draws as a mouse does; the container's
 * touch-action is none meanwhile (map-areas.css), or the browser would scroll the page instead.
 */
function DragToDraw({ drawing, onDrawn }: { drawing: boolean; onDrawn(bounds: Bbox): void }) {
  const map = useMap();
  const drawn = useRef(onDrawn);
  drawn.current = onDrawn;
  useEffect(() => {
    if (!drawing) return;
    const container = map.getContainer();
    map.dragging.disable();
    container.classList.add('area-map-drawing');
    let start: { latLng: L.LatLng; point: L.Point; pointer: number } | null = null;
    let draft: L.Rectangle | null = null;
    const latLngOf = (e: PointerEvent) => map.mouseEventToLatLng(e);
    const down = (e: PointerEvent) => {
      // The zoom buttons and the attribution stay usable while drawing.
      if (!e.isPrimary || (e.target as Element).closest('.leaflet-control')) return;
      e.preventDefault();
      container.setPointerCapture(e.pointerId);
      const latLng = latLngOf(e);
      start = { latLng, point: map.mouseEventToContainerPoint(e), pointer: e.pointerId };
      draft = L.rectangle(L.latLngBounds(latLng, latLng), DRAFT_STYLE).addTo(map);
    };
    const move = (e: PointerEvent) => {
      if (start?.pointer !== e.pointerId || !draft) return;
      draft.setBounds(L.latLngBounds(start.latLng, latLngOf(e)));
    };
    const up = (e: PointerEvent) => {
      if (start?.pointer !== e.pointerId) return;
      const end = map.mouseEventToContainerPoint(e);
      const bounds = L.latLngBounds(start.latLng, latLngOf(e));
      const dragged =
        Math.abs(end.x - start.point.x) >= MIN_DRAG_PX &&
        Math.abs(end.y - start.point.y) >= MIN_DRAG_PX;
      start = null;
      draft?.remove();
      draft = null;
      if (dragged) drawn.current(toBbox(bounds));
    };
    const cancel = (e: PointerEvent) => {
      if (start?.pointer !== e.pointerId) return;
      start = null;
      draft?.remove();
      draft = null;
    };
    container.addEventListener('pointerdown', down);
    container.addEventListener('pointermove', move);
    container.addEventListener('pointerup', up);
    container.addEventListener('pointercancel', cancel);
    return () => {
      container.removeEventListener('pointerdown', down);
      container.removeEventListener('pointermove', move);
      container.removeEventListener('pointerup', up);
      container.removeEventListener('pointercancel', cancel);
      container.classList.remove('area-map-drawing');
      draft?.remove();
      map.dragging.enable();
    };
  }, [map, drawing]);
  return null;
}

/**
 * Frames `bbox` when it changed from outside the map (edges typed), not when the map itself
 * drew it: re-framing a rectangle just drawn would move the map under the technician's finger.
 */
function FrameTyped({ bbox, fromMap }: { bbox: Bbox | null; fromMap: Bbox | null }) {
  const map = useMap();
  const key = bbox ? JSON.stringify(bbox) : '';
  useEffect(() => {
    if (!bbox || (fromMap && sameArea(bbox, fromMap))) return;
    map.fitBounds(toLatLngBounds(bbox), { padding: [16, 16], animate: false });
    // key stands for bbox.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [map, key]);
  return null;
}

type Props = {
  tileUrl: string;
  /** The area as the edges now say (typed or drawn), or null while they are not valid. */
  bbox: Bbox | null;
  /** Where the map opens when there is no area yet: the agency's sites' extent, if known. */
  home: Bbox | null;
  onChange(bbox: Bbox): void;
};

/**
 * A small map to choose the area on: "Draw on the map" then one drag draws it, and "Use this
 * view" takes what the map shows (the way with gloves on: pan and zoom, then one tap). The area
 * is drawn on the map whichever way it was chosen, typed edges included.
 */
export function RectangleMap({ tileUrl, bbox, home, onChange }: Props) {
  const intl = useI18n();
  const t = intl.formatMessage;
  const [map, setMap] = useState<L.Map | null>(null);
  const [drawing, setDrawing] = useState(false);
  const [fromMap, setFromMap] = useState<Bbox | null>(null);
  const choose = (area: Bbox) => {
    setFromMap(area);
    onChange(area);
  };
  const opening = bbox ?? home;
  const archive = tileUrl === ARCHIVE_TILES ? archiveUrl() : null;
  return (
    <div className="area-map-picker">
      <div className="area-map-actions">
        <button
          type="button"
          className="button"
          aria-pressed={drawing}
          onClick={() => setDrawing((d) => !d)}
        >
          {drawing
            ? t({ id: 'mapAreas.cancelDrawing', defaultMessage: 'Cancel drawing' })
            : t({ id: 'mapAreas.draw', defaultMessage: 'Draw on the map' })}
        </button>
        <button
          type="button"
          className="button"
          disabled={!map}
          onClick={() => {
            if (!map) return;
            setDrawing(false);
            choose(toBbox(map.getBounds()));
          }}
        >
          {t({ id: 'mapAreas.useView', defaultMessage: 'Use this view' })}
        </button>
      </div>
      <p className="field-hint" aria-live="polite">
        {drawing
          ? t({
              id: 'mapAreas.drawHint',
              defaultMessage: 'Drag across the map from one corner of the area to the other.',
            })
          : t({
              id: 'mapAreas.panHint',
              defaultMessage: 'Pan and zoom the map, then draw the area or use the whole view.',
            })}
      </p>
      <div
        className="map area-map"
        role="region"
        aria-label={t({ id: 'mapAreas.mapName', defaultMessage: 'Map to choose the area on' })}
      >
        <MapContainer
          ref={setMap}
          {...(opening
            ? { bounds: toLatLngBounds(opening), boundsOptions: { padding: [16, 16] } }
            : { center: DEFAULT_CENTER, zoom: 10 })}
          className="map-canvas"
          scrollWheelZoom={false}
        >
          {archive ? (
            <ArchiveTiles url={archive} />
          ) : (
            <TileLayer
              url={tileUrl}
              attribution={escapeHtml(cachedTileCredit())}
              crossOrigin="anonymous"
              updateWhenZooming={false}
            />
          )}
          {bbox ? <Rectangle bounds={toLatLngBounds(bbox)} pathOptions={AREA_STYLE} /> : null}
          <DragToDraw
            drawing={drawing}
            onDrawn={(area) => {
              setDrawing(false);
              choose(area);
            }}
          />
          <FrameTyped bbox={bbox} fromMap={fromMap} />
        </MapContainer>
      </div>
    </div>
  );
}
