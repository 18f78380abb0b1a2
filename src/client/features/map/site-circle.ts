import L from 'leaflet';

type CanvasInternals = L.Canvas & { _ctx: CanvasRenderingContext2D; _drawing: boolean };
type CircleInternals = L.CircleMarker & {
  _renderer: CanvasInternals;
  _point: L.Point;
  _empty(): boolean;
};

/** A site's circle: 8 px, a 2 px ring; green when sent, amber while not. */
const RADIUS = 8;
const RING = 2;
const COLOURS = {
  synced: { color: '#14532d', fillColor: '#22c55e' },
  unsent: { color: '#92400e', fillColor: '#f59e0b' },
};
const FILL_OPACITY = 0.85;

/**
 * Each colour's circle drawn once, at the screen's pixel density, and copied at each redraw: a
 * zoomed-in view holds hundreds of sites, and drawing each as a path (arc, fill, stroke, their
 * styles set anew) made one redraw of the canvas a long task at 4x CPU throttle (a trace of
 * panning at 20,000 sites).
 */
const drawnCircles = new Map<string, HTMLCanvasElement>();

function circleImage(state: keyof typeof COLOURS): HTMLCanvasElement {
  const scale = window.devicePixelRatio || 1;
  const key = `${state} ${scale}`;
  let image = drawnCircles.get(key);
  if (image) return image;
  const half = RADIUS + RING;
  image = document.createElement('canvas');
  image.width = image.height = Math.ceil(2 * half * scale);
  const ctx = image.getContext('2d');
  if (ctx) {
    ctx.scale(scale, scale);
    ctx.beginPath();
    ctx.arc(half, half, RADIUS, 0, Math.PI * 2);
    ctx.globalAlpha = FILL_OPACITY;
    ctx.fillStyle = COLOURS[state].fillColor;
    ctx.fill();
    ctx.globalAlpha = 1;
    ctx.lineWidth = RING;
    ctx.strokeStyle = COLOURS[state].color;
    ctx.stroke();
  }
  drawnCircles.set(key, image);
  return image;
}

const SiteCircle = L.CircleMarker.extend({
  _updatePath(this: CircleInternals & { options: { state: keyof typeof COLOURS } }) {
    const renderer = this._renderer;
    if (!renderer._drawing || this._empty()) return;
    const { x, y } = this._point;
    const half = RADIUS + RING;
    renderer._ctx.globalAlpha = 1;
    renderer._ctx.drawImage(
      circleImage(this.options.state),
      x - half,
      y - half,
      2 * half,
      2 * half,
    );
  },
}) as unknown as new (latlng: L.LatLngExpression, options: L.CircleMarkerOptions) => L.CircleMarker;

/**
 * A site's circle on `renderer` (a canvas), looking as Leaflet would draw it with these options,
 * and hit-tested as Leaflet's (its radius and the canvas's tolerance).
 */
export function siteCircle(
  at: L.LatLngExpression,
  synced: boolean,
  renderer: L.Canvas,
  interactive: boolean,
): L.CircleMarker {
  const state: keyof typeof COLOURS = synced ? 'synced' : 'unsent';
  const options: L.CircleMarkerOptions & { state: keyof typeof COLOURS } = {
    renderer,
    radius: RADIUS,
    weight: RING,
    ...COLOURS[state],
    fillOpacity: FILL_OPACITY,
    interactive,
    // The tap is the site's: the map's own click (which closes the preview) is not told.
    bubblingMouseEvents: false,
    state,
  };
  return new SiteCircle(at, options);
}
