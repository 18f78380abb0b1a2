import { z } from 'zod';
import { cachedConfig, type AppConfig } from './app-config';

/**
 * The agency's map archive (a PMTiles file the BFF serves, named by /api/config as tileArchive).
 * Its tiles have no URL of their own: a saved map area stores each one under this same-origin
 * template in the saved areas' cache, and the archive layer reads there first, so offline the
 * map draws what was saved.
 */
export const ARCHIVE_TILES = '/map/archive/{z}/{x}/{y}';

/** Cache Storage cache of saved map areas' tiles (features/map-areas), read by the map. */
export const AREAS_CACHE = 'trapline-areas';

const withArchive = z.object({ tileArchive: z.string().min(1) });

/** The archive's URL as last told by the BFF, or null: the map's tiles come from TILE_URL. */
export function archiveUrl(config: AppConfig = cachedConfig()): string | null {
  const parsed = withArchive.safeParse(config);
  return parsed.success ? parsed.data.tileArchive : null;
}

/** The synthetic URL a saved archive tile is stored under. */
export function archiveTileUrl(z: number, x: number, y: number): string {
  return `/map/archive/${z}/${x}/${y}`;
}

/** The z/x/y of a synthetic archive tile URL (relative or absolute), or null. */
export function archiveTileOf(url: string): { z: number; x: number; y: number } | null {
  const m = /\/map\/archive\/(\d+)\/(\d+)\/(\d+)$/.exec(url);
  return m ? { z: Number(m[1]), x: Number(m[2]), y: Number(m[3]) } : null;
}
