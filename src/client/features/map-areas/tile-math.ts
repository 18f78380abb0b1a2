/**
 * Web Mercator tile arithmetic (the XYZ scheme of OpenStreetMap and Leaflet's default CRS): which
 * tiles cover a box at a zoom, how many for a zoom range, and what they are likely to weigh.
 */

/** Degrees, west < east (boxes across the antimeridian are not offered). */
export type Bbox = { west: number; south: number; east: number; north: number };
export type TileRange = { z: number; minX: number; maxX: number; minY: number; maxY: number };
export type Tile = { z: number; x: number; y: number };

/** Web Mercator's limit: tiles cover latitudes up to ±85.0511°. */
export const MAX_LATITUDE = 85.0511287798;
/** Deepest zoom offered: standard tile servers stop at 19. */
export const MAX_ZOOM = 19;

function clamp(v: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, v));
}

/** Tile column of a longitude at zoom z. */
export function tileX(lng: number, z: number): number {
  const n = 2 ** z;
  return clamp(Math.floor(((lng + 180) / 360) * n), 0, n - 1);
}

/** Tile row of a latitude at zoom z (row 0 at the north). */
export function tileY(lat: number, z: number): number {
  const n = 2 ** z;
  const rad = (clamp(lat, -MAX_LATITUDE, MAX_LATITUDE) * Math.PI) / 180;
  const y = ((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * n;
  return clamp(Math.floor(y), 0, n - 1);
}

/** Web Mercator y of a latitude as a fraction of the world's height (0 at the north). */
function mercatorY(lat: number): number {
  const rad = (clamp(lat, -MAX_LATITUDE, MAX_LATITUDE) * Math.PI) / 180;
  return (1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2;
}

/**
 * The deepest whole zoom at which the box fits a map of `width` × `height` CSS pixels (256-pixel
 * tiles), as Leaflet's fitBounds chooses it; 0 at least, `max` at most.
 */
export function fitZoom(bbox: Bbox, width: number, height: number, max = MAX_ZOOM): number {
  const dx = (bbox.east - bbox.west) / 360;
  const dy = mercatorY(bbox.south) - mercatorY(bbox.north);
  const scale = Math.min(width / Math.max(dx * 256, 1e-12), height / Math.max(dy * 256, 1e-12));
  return clamp(Math.floor(Math.log2(scale)), 0, max);
}

/** The tiles touching the box at zoom z, as inclusive column and row ranges. */
export function tileRange(bbox: Bbox, z: number): TileRange {
  return {
    z,
    minX: tileX(bbox.west, z),
    maxX: tileX(bbox.east, z),
    minY: tileY(bbox.north, z),
    maxY: tileY(bbox.south, z),
  };
}

function rangeSize(r: TileRange): number {
  return (r.maxX - r.minX + 1) * (r.maxY - r.minY + 1);
}

/** How many tiles cover the box at every zoom from minZoom to maxZoom (both included). */
export function countTiles(bbox: Bbox, minZoom: number, maxZoom: number): number {
  let total = 0;
  for (let z = minZoom; z <= maxZoom; z++) total += rangeSize(tileRange(bbox, z));
  return total;
}

/** Every tile of the box and zoom range, zoom by zoom, row by row. */
export function* tilesOf(bbox: Bbox, minZoom: number, maxZoom: number): Generator<Tile> {
  for (let z = minZoom; z <= maxZoom; z++) {
    const r = tileRange(bbox, z);
    for (let y = r.minY; y <= r.maxY; y++) for (let x = r.minX; x <= r.maxX; x++) yield { z, x, y };
  }
}

/** Whether a tile is one of the box's tiles in the zoom range. */
export function tileInArea(
  tile: Tile,
  area: { bbox: Bbox; minZoom: number; maxZoom: number },
): boolean {
  if (tile.z < area.minZoom || tile.z > area.maxZoom) return false;
  const r = tileRange(area.bbox, tile.z);
  return tile.x >= r.minX && tile.x <= r.maxX && tile.y >= r.minY && tile.y <= r.maxY;
}

/**
 * Estimated bytes of `count` tiles from the sizes of a few sample tiles: their mean times the
 * count (tiles of one source and area weigh alike within a small factor; water and fields
 * are lighter, towns heavier, so the samples come from the area itself).
 */
export function estimateBytes(sampleSizes: number[], count: number): number {
  if (sampleSizes.length === 0 || count <= 0) return 0;
  const mean = sampleSizes.reduce((a, b) => a + b, 0) / sampleSizes.length;
  return Math.round(mean * count);
}

/** Whether box `inner` lies wholly inside box `outer`. */
export function bboxContains(outer: Bbox, inner: Bbox): boolean {
  return (
    inner.west >= outer.west &&
    inner.east <= outer.east &&
    inner.south >= outer.south &&
    inner.north <= outer.north
  );
}
