import type { TraplineDb } from '../../db/database';
import type { Bbox } from './tile-math';

/** Margin around the sites, so the map around the outermost sites is saved too. */
const MARGIN = 0.1;
/** The least margin in degrees (~2 km): one site alone still gets its surroundings. */
const MIN_MARGIN_DEG = 0.02;

export type SitesExtent = { bbox: Bbox; sites: number };

/**
 * The box around the agency's sites on this tablet (read from Dexie, one pass without keeping
 * the rows), with a margin; null when no site has a location.
 */
export async function sitesExtent(db: TraplineDb): Promise<SitesExtent | null> {
  let west = Infinity;
  let south = Infinity;
  let east = -Infinity;
  let north = -Infinity;
  let sites = 0;
  await db.sites.each((site) => {
    // A deleted site (its deletion maybe not sent yet) is not one of the agency's sites.
    if (site.deleted) return;
    const c = (site.data.shape as { coordinates?: unknown } | undefined)?.coordinates;
    if (!Array.isArray(c)) return;
    const [lng, lat] = c as [unknown, unknown];
    if (typeof lng !== 'number' || typeof lat !== 'number') return;
    if (!Number.isFinite(lng) || !Number.isFinite(lat)) return;
    west = Math.min(west, lng);
    east = Math.max(east, lng);
    south = Math.min(south, lat);
    north = Math.max(north, lat);
    sites++;
  });
  if (sites === 0) return null;
  const dx = Math.max((east - west) * MARGIN, MIN_MARGIN_DEG);
  const dy = Math.max((north - south) * MARGIN, MIN_MARGIN_DEG);
  return {
    bbox: {
      west: Math.max(-180, west - dx),
      east: Math.min(180, east + dx),
      south: Math.max(-85, south - dy),
      north: Math.min(85, north + dy),
    },
    sites,
  };
}
