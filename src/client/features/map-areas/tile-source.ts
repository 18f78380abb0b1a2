import { z } from 'zod';
import { cachedConfig, fetchConfig } from '../../lib/app-config';
import { ARCHIVE_TILES, archiveUrl } from '../../lib/archive-source';

/**
 * Where the map's tiles come from: TILE_URL's server, or the agency's map archive (`archive`,
 * whose tiles are saved under the synthetic template ARCHIVE_TILES). Area downloads are always
 * allowed from the agency's own archive.
 */
export type TileSource = { tileUrl: string; bulkDownload: boolean; archive: string | null };

// Older BFFs (and the cached copy from before the setting existed) say nothing: not allowed.
const bulk = z.object({ tileBulkDownload: z.boolean() });

function toSource(config: { tileUrl: string }): TileSource {
  const archive = archiveUrl(config);
  if (archive) return { tileUrl: ARCHIVE_TILES, bulkDownload: true, archive };
  const parsed = bulk.safeParse(config);
  return {
    tileUrl: config.tileUrl,
    bulkDownload: parsed.success && parsed.data.tileBulkDownload,
    archive: null,
  };
}

/** The map's tile source as last told by the BFF (kept for offline use). */
export function cachedTileSource(): TileSource {
  return toSource(cachedConfig());
}

/** Asks the BFF again (the operator may have changed the setting); the cached copy offline. */
export async function freshTileSource(): Promise<TileSource> {
  return toSource(await fetchConfig());
}

/** The tile server's host, for messages. */
export function tileHost(tileUrl: string): string {
  return /^https?:\/\/([^/]+)/.exec(tileUrl)?.[1] ?? tileUrl;
}
