import L from 'leaflet';

/** How a disc of many sites looks: its fill, the halo around its white ring, and its count. */
export type DiscLook = { fill: string; halo: string; count: string; size: number };

/** The app's own font (styles.css), bold, at the size the counts had as elements. */
const COUNT_FONT = "700 17px system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";

/** The white ring (3 px) and the halo beyond it (2 px), around a disc of `size` px. */
const RING_PX = 3;
const HALO_PX = 2;

type CanvasInternals = L.Canvas & { _ctx: CanvasRenderingContext2D; _drawing: boolean };

type DiscInternals = L.CircleMarker & {
  _renderer: CanvasInternals;
  _point: L.Point;
  _empty(): boolean;
  options: L.CircleMarkerOptions & { look: DiscLook };
};

/**
 * Each look's disc drawn once, at the screen's pixel density, and copied onto the canvas at each
 * redraw: the count's text was the larger part of drawing a disc, and a redraw (every move's
 * end) draws all of a view's 100–200 discs, whose counts and colours repeat.
 */
const drawnDiscs = new Map<string, HTMLCanvasElement>();

function discImage(look: DiscLook): HTMLCanvasElement {
  const scale = window.devicePixelRatio || 1;
  const key = `${look.fill} ${look.halo} ${look.size} ${look.count} ${scale}`;
  let image = drawnDiscs.get(key);
  if (image) return image;
  const r = look.size / 2;
  const outer = r + RING_PX + HALO_PX;
  image = document.createElement('canvas');
  image.width = image.height = Math.ceil(2 * outer * scale);
  const ctx = image.getContext('2d');
  if (ctx) {
    ctx.scale(scale, scale);
    const disc = (radius: number, colour: string) => {
      ctx.beginPath();
      ctx.arc(outer, outer, radius, 0, Math.PI * 2);
      ctx.fillStyle = colour;
      ctx.fill();
    };
    disc(outer, look.halo);
    disc(r + RING_PX, '#ffffff');
    disc(r, look.fill);
    ctx.fillStyle = '#ffffff';
    ctx.font = COUNT_FONT;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(look.count, outer, outer);
  }
  drawnDiscs.set(key, image);
  return image;
}

/**
 * A cluster's or a group's disc with its count, drawn on the sites' canvas instead of being an
 * element: each element of a view's 100–200 discs had its style, layout (the count's text) and
 * paint in the frame that added it, 30–60 ms a frame at 4x CPU throttle, and a view took a dozen
 * such frames to fill (a trace of panning at 20,000 sites). On the canvas, all of a view's discs
 * are drawn in one redraw. The disc takes no tap itself: a transparent button over it does
 * (sites-layer.ts), so it stays reachable by keyboard and named for screen readers.
 */
const CountDisc = L.CircleMarker.extend({
  _updatePath(this: DiscInternals) {
    const renderer = this._renderer;
    if (!renderer._drawing || this._empty()) return;
    const { x, y } = this._point;
    const image = discImage(this.options.look);
    const r = this.options.look.size / 2 + RING_PX + HALO_PX;
    renderer._ctx.globalAlpha = 1;
    renderer._ctx.drawImage(image, x - r, y - r, 2 * r, 2 * r);
  },
}) as unknown as new (latlng: L.LatLngExpression, options: L.CircleMarkerOptions) => L.CircleMarker;

/** A disc at `at` on `renderer`, looking as `look` says; it takes no taps. */
export function countDisc(at: L.LatLngExpression, look: DiscLook, renderer: L.Canvas): L.Layer {
  // Its image made now, in the layer's time-budgeted slices (sites-layer.ts), not in the canvas's
  // one redraw of the whole view: a view's counts are mostly new ones after a zoom.
  discImage(look);
  return new CountDisc(at, {
    renderer,
    // The whole disc, ring and halo: what the canvas clears and redraws when it changes.
    radius: look.size / 2 + RING_PX + HALO_PX,
    stroke: false,
    interactive: false,
    look,
  } as L.CircleMarkerOptions);
}
