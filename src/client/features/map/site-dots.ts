import L from 'leaflet';
import type { IndexedSite } from '../../lib/site-index';

/** A site's dot on the map: `key` changes whenever what it shows does (MapFeature.key). */
export type SiteDot = { key: string; lat: number; lon: number; site: IndexedSite };

const RADIUS = 8;
const WEIGHT = 2;
/** How far from a tile a dot's centre may be and still reach into it (its radius and stroke). */
const REACH = RADIUS + WEIGHT;
/**
 * A tap or a pointer this near a dot's centre (px) is the dot's: the 8 px circle is a 46 px target
 * for a glove, as Leaflet's canvas gave it (radius, half the stroke, and a tolerance of 14).
 */
export const DOT_HIT_PX = RADIUS + WEIGHT / 2 + 14;

type Tile = { el: HTMLCanvasElement; coords: L.Coords };
type Grid = L.GridLayer & {
  _tiles: Record<string, Tile>;
  _tileCoordsToKey(coords: L.Coords): string;
};

/**
 * The sites' dots drawn on a grid of small canvas tiles, as the map's own tiles are, instead of on
 * one canvas over the view. The one canvas was cleared and redrawn at the end of every pan, and
 * each such frame handed the compositor a fresh copy of the whole padded view (1920 x 1200 px):
 * in a trace of panning 20,000 sites at 4x CPU throttle that copy was the longest task of the pan
 * and of opening Sites (68-107 ms). Tiles are drawn once; a pan draws only the tiles it
 * uncovers, and new sites redraw only the tiles they fall on. A tile without a dot is a canvas
 * never drawn on, which costs the browser no bitmap.
 *
 * Drawing only: which dot a tap or the pointer is on is `dotAt`, asked by the layer that owns it.
 */
export class SiteDots extends L.GridLayer {
  private dots: SiteDot[] = [];
  /** The dots reaching into each tile, by zoom and then by "x:y"; made when first asked for. */
  private buckets = new Map<number, Map<string, SiteDot[]>>();
  /** What each tile shows: the keys of its dots, joined. */
  private readonly shown = new WeakMap<HTMLCanvasElement, string>();

  constructor() {
    // Above the map's tiles with the other overlays; no world copies (sites are not repeated), and
    // no tiles made during a zoom's animation, only once it has ended (as the map's tiles).
    super({ pane: 'overlayPane', noWrap: true, updateWhenZooming: false, keepBuffer: 1 });
  }

  /** Draws `dots` instead of the dots drawn: only the tiles whose dots changed are redrawn. */
  setDots(dots: SiteDot[]): void {
    this.dots = dots;
    this.buckets = new Map();
    const grid = this as unknown as Grid;
    if (!this._map) return;
    for (const tile of Object.values(grid._tiles)) this.paint(tile.el, tile.coords);
  }

  /** How many dots are drawn. */
  get count(): number {
    return this.dots.length;
  }

  /** The dot within DOT_HIT_PX of a point of the map's container, the nearest if several. */
  dotAt(point: L.Point): SiteDot | null {
    const map = this._map;
    if (!map) return null;
    let best: SiteDot | null = null;
    let bestDistance = DOT_HIT_PX;
    for (const dot of this.dots) {
      const at = map.latLngToContainerPoint([dot.lat, dot.lon]);
      const distance = at.distanceTo(point);
      if (distance <= bestDistance) {
        best = dot;
        bestDistance = distance;
      }
    }
    return best;
  }

  createTile(coords: L.Coords): HTMLElement {
    const tile = document.createElement('canvas');
    const size = this.getTileSize();
    // The map's pixels at the screen's density: dots as sharp as Leaflet's own canvas drew them.
    const ratio = L.Browser.retina ? 2 : 1;
    tile.width = size.x * ratio;
    tile.height = size.y * ratio;
    this.paint(tile, coords);
    return tile;
  }

  /** Draws a tile's dots, unless it already shows exactly those. */
  private paint(tile: HTMLCanvasElement, coords: L.Coords): void {
    const dots = this.dotsOf(coords);
    const keys = dots.map((d) => d.key).join('|');
    if ((this.shown.get(tile) ?? '') === keys) return;
    this.shown.set(tile, keys);
    const ctx = tile.getContext('2d');
    if (!ctx) return;
    const size = this.getTileSize();
    const ratio = tile.width / size.x;
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.clearRect(0, 0, size.x, size.y);
    const map = this._map;
    for (const dot of dots) {
      const at = map.project([dot.lat, dot.lon], coords.z);
      const synced = dot.site.state === 'synced';
      ctx.beginPath();
      ctx.arc(at.x - coords.x * size.x, at.y - coords.y * size.y, RADIUS, 0, Math.PI * 2);
      ctx.globalAlpha = 0.85;
      ctx.fillStyle = synced ? '#22c55e' : '#f59e0b';
      ctx.fill();
      ctx.globalAlpha = 1;
      ctx.lineWidth = WEIGHT;
      ctx.strokeStyle = synced ? '#14532d' : '#92400e';
      ctx.stroke();
    }
  }

  /** The dots reaching into the tile at `coords`, from buckets made once per zoom and dot set. */
  private dotsOf(coords: L.Coords): SiteDot[] {
    let buckets = this.buckets.get(coords.z);
    if (!buckets) {
      buckets = new Map();
      this.buckets.set(coords.z, buckets);
      const size = this.getTileSize();
      for (const dot of this.dots) {
        const at = this._map.project([dot.lat, dot.lon], coords.z);
        const x0 = Math.floor((at.x - REACH) / size.x);
        const x1 = Math.floor((at.x + REACH) / size.x);
        const y0 = Math.floor((at.y - REACH) / size.y);
        const y1 = Math.floor((at.y + REACH) / size.y);
        for (let x = x0; x <= x1; x++)
          for (let y = y0; y <= y1; y++) {
            const key = `${x}:${y}`;
            const bucket = buckets.get(key);
            if (bucket) bucket.push(dot);
            else buckets.set(key, [dot]);
          }
      }
    }
    return buckets.get(`${coords.x}:${coords.y}`) ?? [];
  }
}
