import { archiveTileOf, archiveUrl, ARCHIVE_TILES } from '../../lib/archive-source';

/**
 * Reads one tile of an area: its image, or null where the source has no tile (the archive
 * does not cover the place). `revalidate`: ask the server again rather than take the browser's
 * HTTP cache (a refresh).
 */
export type ReadTile = (
  url: string,
  signal: AbortSignal,
  revalidate?: boolean,
) => Promise<Blob | null>;

async function fromServer(url: string, signal: AbortSignal, revalidate = false) {
  // As Leaflet asks (crossOrigin="anonymous"): a CORS answer whose status can be checked.
  const res = await fetch(url, {
    mode: 'cors',
    credentials: 'omit',
    cache: revalidate ? 'no-cache' : 'default',
    signal,
  });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  return res.blob();
}

/**
 * How to read the tiles of `template`: from its tile server, or, for the agency's archive
 * (ARCHIVE_TILES), out of the PMTiles file by range requests (the reader loads on first use).
 * The archive's own HTTP answers are revalidated by ETag, so a refresh needs nothing more.
 */
export function tileReader(template: string): ReadTile {
  if (template !== ARCHIVE_TILES) return fromServer;
  return async (url, signal) => {
    const archive = archiveUrl();
    const tile = archiveTileOf(url);
    if (!archive || !tile) throw new Error('This map archive is not offered any more');
    const { readArchiveTile } = await import('../../lib/archive-reader');
    return readArchiveTile(archive, tile.z, tile.x, tile.y, signal);
  };
}
