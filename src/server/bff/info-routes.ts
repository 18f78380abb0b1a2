import type { FastifyInstance } from 'fastify';
import type { BffContext } from './context';
import { MAP_ARCHIVE_PATH } from './map-archive-route';
import { requireSession } from './require-session';

const HEALTH_PROBE_TIMEOUT_MS = 2_000;
const HEALTH_CACHE_MS = 5_000;

/**
 * The map's credit line (plain text; the app escapes it): the operator's TILE_ATTRIBUTION, else
 * OpenStreetMap's credit for its own server, else the tile host, so another server's map is never
 * credited to a source it may not come from. An archive carries its own credit (its metadata).
 */
export function tileCredit(ctx: Pick<BffContext, 'tileUrl' | 'tileAttribution'>): string {
  if (ctx.tileAttribution) return ctx.tileAttribution;
  const host = /^https?:\/\/([^/]+)/.exec(ctx.tileUrl)?.[1] ?? '';
  if (/(^|\.)openstreetmap\.org$/.test(host)) return '© OpenStreetMap contributors';
  return `Map tiles: ${host.replace(/\{s\}\./g, '')}`;
}

/**
 * GET /api/health: liveness (always 200 while the process serves) and whether the upstream
 * answers HTTP at all (any status counts: a 401 proves it is up). Probes are cached briefly so a
 * monitor polling hard does not load the upstream.
 * GET /api/config: settings the built app reads at run time (the tile URL, whether its server
 * allows the bulk downloads of offline map areas, and the agency's map archive if there is one,
 * as `tileArchive: '/map/archive.pmtiles'`). Signed in only: the
 * app reads it once signed in (and keeps the last copy for offline use), so nothing about the
 * deployment is told to a visitor who has not signed in.
 */
export async function infoRoutes(app: FastifyInstance, ctx: BffContext): Promise<void> {
  let last: { at: number; reachable: boolean } | null = null;
  app.get('/api/health', async () => {
    const at = ctx.now().getTime();
    if (!last || at - last.at > HEALTH_CACHE_MS) {
      let reachable: boolean;
      try {
        await ctx.upstream.request({
          method: 'GET',
          path: '/v1/me',
          headers: { accept: 'application/json' },
          timeoutMs: HEALTH_PROBE_TIMEOUT_MS,
        });
        reachable = true;
      } catch {
        reachable = false;
      }
      last = { at, reachable };
    }
    return { status: 'ok', upstream: last.reachable ? 'reachable' : 'unreachable' };
  });

  app.get('/api/config', { preHandler: requireSession(ctx) }, async () => ({
    tileUrl: ctx.tileUrl,
    tileAttribution: tileCredit(ctx),
    tileBulkDownload: ctx.tileBulkDownload ?? false,
    ...(ctx.tileArchive ? { tileArchive: MAP_ARCHIVE_PATH } : {}),
  }));
}
