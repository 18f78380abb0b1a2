import L from 'leaflet';

type PacedTileLayer = L.TileLayer & {
  _tiles: Record<string, { el: HTMLElement; coords: L.Coords } | undefined>;
  _tileZoom: number | undefined;
  _tileCoordsToKey(coords: L.Coords): string;
  _tileOnLoad(done: L.DoneCallback, tile: HTMLImageElement): void;
  _tileOnError(done: L.DoneCallback, tile: HTMLImageElement, e: Event): void;
};

/** A tile image made, its request not started yet. */
type WaitingTile = { img: HTMLImageElement; url: () => string; wanted: () => boolean };

/**
 * Main-thread time one task may spend starting tile requests (ms). Starting one (the image's
 * fetch, through the service worker) took 2–4 ms at 4x CPU throttle, in a microtask after the
 * script that set its `src`; Leaflet sets a new zoom level's 15–40 tiles in the task that ends
 * the zoom, and that microtask run was half of the longest task of panning and of opening Sites
 * (a trace at 4x throttle). The budget is time, measured, not a count of tiles: a slower tablet
 * starts fewer per task, a faster one more.
 */
export const TILE_SLICE_MS = 10;

/** Tiles waiting for their request, nearest the view's centre first (Leaflet adds them so). */
const waiting: WaitingTile[] = [];
let scheduled = false;
/** Images whose request has not started (their `src` is still unset). */
const unstarted = new WeakSet<HTMLImageElement>();

function scheduleSlice(): void {
  if (scheduled || waiting.length === 0) return;
  scheduled = true;
  setTimeout(runSlice, 0);
}

/**
 * Starts tile requests one at a time until TILE_SLICE_MS is spent, the rest in later tasks (the
 * page draws and takes taps in between). Each next tile is started from a microtask queued after
 * the previous `src` was set: the browser's own microtask that starts that image's request runs
 * before it, so the time read there includes it.
 */
function runSlice(): void {
  scheduled = false;
  const started = performance.now();
  const step = (): void => {
    const next = waiting.shift();
    if (next === undefined) return;
    // A tile taken off the map before its turn (a zoom or a pan moved on) is never requested.
    unstarted.delete(next.img);
    if (next.wanted()) next.img.src = next.url();
    queueMicrotask(() => {
      if (performance.now() - started < TILE_SLICE_MS) step();
      else scheduleSlice();
    });
  };
  step();
}

/** Tiles still waiting for their request (for tests). */
export function tilesWaiting(): number {
  return waiting.length;
}

/**
 * Every TileLayer (the tile server's map) makes its tiles as Leaflet 1.9.4 does — an image with
 * its load and error handlers, its cross-origin and referrer settings, an empty alt — but sets
 * their `src` through the pacing above instead of at once. Leaflet's bookkeeping is unchanged: a
 * tile is in its grid (and keeps its parent level shown) from the start, and counts as loaded
 * when its image loads or fails.
 */
const abortLoading = (L.TileLayer.prototype as unknown as { _abortLoading(): void })._abortLoading;
const removeGridTile = (L.GridLayer.prototype as unknown as { _removeTile(key: string): void })
  ._removeTile;

L.TileLayer.include({
  /**
   * When the zoom level changes, Leaflet drops the old level's tiles still loading (`complete`
   * false) and keeps loaded ones until the new level covers them. An image with no `src` counts
   * as complete, so an old-level tile still waiting for its request is dropped here the same way:
   * kept, it would never load and the layer would never be done loading.
   */
  _abortLoading(this: PacedTileLayer): void {
    for (const [key, tile] of Object.entries(this._tiles)) {
      if (!tile || tile.coords.z === this._tileZoom) continue;
      const img = tile.el as HTMLImageElement;
      if (!unstarted.has(img)) continue;
      unstarted.delete(img);
      L.DomUtil.remove(img);
      delete this._tiles[key];
      this.fire('tileabort', { tile: img, coords: tile.coords });
    }
    abortLoading.call(this);
  },

  /**
   * Leaflet sets every removed tile's image to an empty one, to cancel its request: that is a new
   * image load (a microtask each) for every tile a zoom or a long pan drops, 20–40 of them in the
   * task that ends a zoom. Only a tile still loading has a request to cancel; a loaded or failed
   * one, or one never requested, is just taken off.
   */
  _removeTile(this: PacedTileLayer, key: string): void {
    const img = this._tiles[key]?.el as HTMLImageElement | undefined;
    if (img && img.getAttribute('src') && !img.complete)
      img.setAttribute('src', L.Util.emptyImageUrl);
    removeGridTile.call(this, key);
  },

  createTile(this: PacedTileLayer, coords: L.Coords, done: L.DoneCallback): HTMLElement {
    const img = document.createElement('img');
    L.DomEvent.on(img, 'load', () => this._tileOnLoad(done, img));
    L.DomEvent.on(img, 'error', (e) => this._tileOnError(done, img, e as Event));
    const { crossOrigin, referrerPolicy } = this.options;
    if (crossOrigin || crossOrigin === '')
      img.crossOrigin = crossOrigin === true ? '' : crossOrigin;
    if (typeof referrerPolicy === 'string') img.referrerPolicy = referrerPolicy;
    img.alt = '';
    const key = this._tileCoordsToKey(coords);
    unstarted.add(img);
    waiting.push({
      img,
      url: () => this.getTileUrl(coords),
      wanted: () => this._tiles[key]?.el === img,
    });
    scheduleSlice();
    return img;
  },
});
