import L from 'leaflet';

type Level = { el: HTMLElement; origin: L.Point; zoom: number };

type TiledLayer = L.GridLayer & {
  _map: L.Map;
  _container: HTMLElement;
  _tileZoom: number | undefined;
  _levels: Record<number, Level | undefined>;
  _setZoomTransform(level: Level, center: L.LatLng, zoom: number): void;
  _onCreateLevel(level: Level): void;
  _addTile(coords: L.Coords, container: HTMLElement): void;
  _tiles: Record<string, { el: HTMLElement }>;
  _tileCoordsToKey(coords: L.Coords): string;
};

/**
 * Map tiles placed by left/top instead of Leaflet's 3D transform, as the discs' targets are
 * (sites-layer.ts): each tile with a 3D transform is a compositing layer of its own, and a view
 * holds 15–40 tiles, so every frame of a pan or a zoom had the compositor's commit on the main
 * thread walk them all (the longest part of opening Sites and of panning in a trace at 4x CPU
 * throttle). Flat, they paint into their zoom level's layer, which still moves and scales as one
 * during pans and zoom animations. A tile is positioned once, when added (Leaflet moves its level,
 * never the tile), so this is the only place that places one. Every grid layer of the app's maps
 * (the tile server's and an agency's map archive) is made so from here on.
 */
L.GridLayer.addInitHook(function flatTiles(this: TiledLayer) {
  const addTile = this._addTile;
  this._addTile = function addFlatTile(this: TiledLayer, coords, container) {
    addTile.call(this, coords, container);
    const tile = this._tiles[this._tileCoordsToKey(coords)]?.el as
      (HTMLElement & { _leaflet_pos?: L.Point }) | undefined;
    const at = tile?._leaflet_pos;
    if (!tile || !at) return;
    tile.style.transform = '';
    tile.style.left = `${at.x}px`;
    tile.style.top = `${at.y}px`;
  };
});

const updateLevels = (L.GridLayer.prototype as unknown as { _updateLevels(): Level | undefined })
  ._updateLevels;

/**
 * A new zoom level's tile container, made as Leaflet 1.9.4 makes it but without reading its
 * `offsetWidth` afterwards: Leaflet reads it so that a CSS transition would start from the new
 * level's first transform, and the read made the browser recompute the page's style and layout in
 * the middle of the zoom's start and end (20–35 ms of those tasks at 4x CPU throttle, in a trace
 * of panning). The new level holds only tiles still loading when the zoom animates, and tiles
 * do not fade in (base-map.tsx), so nothing it shows depends on that transition.
 */
L.GridLayer.include({
  _updateLevels(this: TiledLayer): Level | undefined {
    const zoom = this._tileZoom;
    if (zoom !== undefined && !this._levels[zoom]) {
      const map = this._map;
      const el = L.DomUtil.create(
        'div',
        'leaflet-tile-container leaflet-zoom-animated',
        this._container,
      );
      el.style.zIndex = String((this.options as L.GridLayerOptions).maxZoom);
      const level: Level = {
        el,
        origin: map.project(map.unproject(map.getPixelOrigin()), zoom).round(),
        zoom,
      };
      this._levels[zoom] = level;
      this._setZoomTransform(level, map.getCenter(), map.getZoom());
      this._onCreateLevel(level);
    }
    // Leaflet's own: re-stacks the levels, drops empty ones, finds the new one made above.
    return updateLevels.call(this);
  },
});
