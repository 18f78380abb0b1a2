import { PMTiles, TileType } from 'pmtiles';

const MIME: Partial<Record<TileType, string>> = {
  [TileType.Png]: 'image/png',
  [TileType.Jpeg]: 'image/jpeg',
  [TileType.Webp]: 'image/webp',
  [TileType.Avif]: 'image/avif',
};

const open = new Map<string, PMTiles>();

/**
 * One tile of the archive at `url` as an image Blob, or null where the archive has none. Loaded
 * on first use (the pmtiles reader stays out of the first screen's bundle). A reader that
 * failed (offline, archive replaced) is dropped: pmtiles keeps a failed header read as its
 * answer, so the next tile starts again with a new one.
 */
export async function readArchiveTile(
  url: string,
  z: number,
  x: number,
  y: number,
  signal?: AbortSignal,
): Promise<Blob | null> {
  let archive = open.get(url);
  if (!archive) {
    archive = new PMTiles(url);
    open.set(url, archive);
  }
  try {
    const header = await archive.getHeader();
    const type = MIME[header.tileType];
    if (!type) throw new Error('The map archive holds vector tiles: the map draws raster tiles');
    const tile = await archive.getZxy(z, x, y, signal);
    return tile ? new Blob([tile.data], { type }) : null;
  } catch (err) {
    if ((err as Error).name !== 'AbortError' && open.get(url) === archive) open.delete(url);
    throw err;
  }
}
