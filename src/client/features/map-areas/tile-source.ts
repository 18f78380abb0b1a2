import { z } from 'zod';
import { cachedConfig, fetchConfig } from '../../lib/app-config';

export type TileSource = { tileUrl: string; bulkDownload: boolean };

// Older BFFs (and the cached copy from before the setting existed) say nothing: not allowed.
const bulk = z.object({ tileBulkDownload: z.boolean() });

function toSource(config: { tileUrl: string }): TileSource {
  const parsed = bulk.safeParse(config);
  return { tileUrl: config.tileUrl, bulkDownload: parsed.success && parsed.data.tileBulkDownload };
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
