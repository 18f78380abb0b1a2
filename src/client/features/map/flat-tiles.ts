import L from 'leaflet';

type TiledLayer = L.GridLayer & {
  _addTile(coords: L.Coords, container: HTMLElement): void;
  _tiles: Record<string, { el: HTMLElement }>;
  _tileCoordsToKey(coords: L.Coords): string;
};

/**
 * Map tiles placed by left/top instead of Leaflet's 3D transform, as the sites' markers are
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
