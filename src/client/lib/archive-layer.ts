import L from 'leaflet';
import { archiveTileUrl, AREAS_CACHE } from './archive-source';
import { readArchiveTile } from './archive-reader';

type ArchiveTile = HTMLCanvasElement & { abort?: AbortController };

/** A saved area's copy of the tile, or null (Cache Storage missing or the tile not saved). */
async function savedTile(z: number, x: number, y: number): Promise<Blob | null> {
  if (typeof caches === 'undefined') return null;
  const saved = await caches.match(archiveTileUrl(z, x, y), { cacheName: AREAS_CACHE });
  return saved ? saved.blob() : null;
}

/**
 * A Leaflet layer drawing the agency's PMTiles archive: each tile from a saved map area if it
 * is there (offline), else read out of the archive by range requests. Tiles are canvases drawn
 * from the decoded image: no blob: URL, which the CSP's img-src does not allow. A tile the
 * archive lacks stays empty; one that cannot be read is a tile error (the map's background
 * shows, as with a tile server that does not answer). Each canvas says which tile it is and
 * where it came from (data-tile, data-from).
 */
export function createArchiveLayer(url: string, options: L.GridLayerOptions = {}): L.GridLayer {
  const Layer = L.GridLayer.extend({
    createTile(coords: L.Coords, done: L.DoneCallback): HTMLElement {
      const tile = document.createElement('canvas') as ArchiveTile;
      const size = this.getTileSize() as L.Point;
      tile.width = size.x;
      tile.height = size.y;
      tile.dataset.tile = `${coords.z}/${coords.x}/${coords.y}`;
      const abort = new AbortController();
      tile.abort = abort;
      void (async () => {
        const saved = await savedTile(coords.z, coords.x, coords.y);
        tile.dataset.from = saved ? 'saved' : 'archive';
        const blob =
          saved ?? (await readArchiveTile(url, coords.z, coords.x, coords.y, abort.signal));
        if (blob) {
          const image = await createImageBitmap(blob);
          tile.getContext('2d')?.drawImage(image, 0, 0, size.x, size.y);
          image.close();
        } else tile.dataset.from = 'none';
      })().then(
        () => done(undefined, tile),
        (err: Error) => {
          if (err.name !== 'AbortError') done(err, tile);
        },
      );
      return tile;
    },
  });
  // Leaflet's extend() is typed without the constructor's options.
  const layer = new (Layer as unknown as new (o: L.GridLayerOptions) => L.GridLayer)(options);
  // A tile scrolled away is not read any more.
  layer.on('tileunload', (e) => (e as L.TileEvent & { tile: ArchiveTile }).tile.abort?.abort());
  return layer;
}
