import { tileX, tileY, type Bbox } from './tile-math';
import { tileReader } from './read-tile';
import { tileUrl } from './tile-url';

/**
 * Sizes of a few real tiles of the area, for the size estimate: the tile at the area's centre at
 * its lowest, middle and highest zoom (three requests, whatever the area's size). Tiles that
 * fail to load are left out; an empty list means no sample could be read.
 */
export async function sampleTileSizes(
  template: string,
  bbox: Bbox,
  minZoom: number,
  maxZoom: number,
  retina: boolean,
  signal: AbortSignal,
): Promise<number[]> {
  const lng = (bbox.west + bbox.east) / 2;
  const lat = (bbox.south + bbox.north) / 2;
  const zooms = [...new Set([minZoom, Math.round((minZoom + maxZoom) / 2), maxZoom])];
  const read = tileReader(template);
  const sizes = await Promise.all(
    zooms.map(async (z) => {
      try {
        const url = tileUrl(template, { z, x: tileX(lng, z), y: tileY(lat, z) }, retina);
        return (await read(url, signal))?.size ?? null;
      } catch {
        return null;
      }
    }),
  );
  return sizes.filter((s): s is number => s !== null);
}
