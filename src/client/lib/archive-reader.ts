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
    let archive = open.get(url);
    if (!archive) {
      archive = new PMTiles(url);
      open.set(url, archive);
    }
    const header = await archive.getHeader();
    const metadata = (await archive.getMetadata().catch(() => null)) as {
      attribution?: unknown;
    } | null;
    const info: ArchiveInfo = {
      minZoom: header.minZoom,
      maxZoom: header.maxZoom,
      attribution:
        typeof metadata?.attribution === 'string' && metadata.attribution.trim() !== ''
          ? metadata.attribution.trim()
          : null,
    };
    localStorage.setItem(INFO_KEY(url), JSON.stringify(info));
    return info;
  } catch {
    const kept = localStorage.getItem(INFO_KEY(url));
    return kept ? (JSON.parse(kept) as ArchiveInfo) : null;
  }
}
