import { PMTiles, TileType } from 'pmtiles';

const MIME: Partial<Record<TileType, string>> = {
  [TileType.Png]: 'image/png',
  [TileType.Jpeg]: 'image/jpeg',
  [TileType.Webp]: 'image/webp',
  [TileType.Avif]: 'image/avif',
};

const open = new Map<string, PMTiles>();

/**
 * Runs `read` on the archive's reader, opened on first use (this module loads on first use too:
 * the pmtiles reader stays out of the first screen's bundle). A reader that failed (offline, archive
 * replaced) is dropped: pmtiles keeps a failed header read as its answer, so the next read
 * starts again with a new one.
 */
async function withReader<T>(url: string, read: (archive: PMTiles) => Promise<T>): Promise<T> {
  let archive = open.get(url);
  if (!archive) {
    archive = new PMTiles(url);
    open.set(url, archive);
  }
  try {
    return await read(archive);
  } catch (err) {
    if ((err as Error).name !== 'AbortError' && open.get(url) === archive) open.delete(url);
    throw err;
  }
}

/** One tile of the archive at `url` as an image Blob, or null where the archive has none. */
export function readArchiveTile(
  url: string,
  z: number,
  x: number,
  y: number,
  signal?: AbortSignal,
): Promise<Blob | null> {
  return withReader(url, async (archive) => {
    const header = await archive.getHeader();
    const type = MIME[header.tileType];
    if (!type) throw new Error('The map archive holds vector tiles: the map draws raster tiles');
    const tile = await archive.getZxy(z, x, y, signal);
    return tile ? new Blob([tile.data], { type }) : null;
  });
}

/** What the map needs to know of an archive besides its tiles. */
export type ArchiveInfo = {
  minZoom: number;
  maxZoom: number;
  /** The archive's metadata `attribution`, as plain text, or null. */
  attribution: string | null;
};

const INFO_KEY = (url: string) => `trapline.archiveInfo:${url}`;

/**
 * The archive's zoom range (its header) and attribution (its metadata). Kept on the tablet once
 * read: offline the header cannot be read, and the map must still enlarge the deepest saved tiles
 * beyond the archive's zoom and name the map's source.
 */
export async function readArchiveInfo(url: string): Promise<ArchiveInfo | null> {
  try {
    const info = await withReader(url, async (archive): Promise<ArchiveInfo> => {
      const header = await archive.getHeader();
      const metadata = (await archive.getMetadata().catch(() => null)) as {
        attribution?: unknown;
      } | null;
      const attribution =
        typeof metadata?.attribution === 'string' ? metadata.attribution.trim() : '';
      return { minZoom: header.minZoom, maxZoom: header.maxZoom, attribution: attribution || null };
    });
    localStorage.setItem(INFO_KEY(url), JSON.stringify(info));
    return info;
  } catch {
    const kept = localStorage.getItem(INFO_KEY(url));
    return kept ? (JSON.parse(kept) as ArchiveInfo) : null;
  }
}
