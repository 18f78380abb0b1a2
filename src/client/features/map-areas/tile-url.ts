import type { Tile } from './tile-math';

/**
 * The URL Leaflet's TileLayer asks for a tile of `template` ({s}, {z}, {x}, {y}, {-y}, {r}), so
 * a saved tile is found under the very key the map's requests carry: {s} picks from "abc" by
 * (x + y) mod 3 and {r} is "@2x" on a high-density screen, both as Leaflet 1.9 does.
 */
export function tileUrl(template: string, tile: Tile, retina = false): string {
  const subdomains = 'abc';
  const values: Record<string, string> = {
    s: subdomains[Math.abs(tile.x + tile.y) % subdomains.length],
    z: String(tile.z),
    x: String(tile.x),
    y: String(tile.y),
    '-y': String(2 ** tile.z - 1 - tile.y),
    r: retina ? '@2x' : '',
  };
  return template.replace(/\{ *([\w-]+) *\}/g, (match, key: string) => values[key] ?? match);
}

/** Whether this screen gets Leaflet's "@2x" tiles (Leaflet's Browser.retina). */
export function isRetina(): boolean {
  return typeof window !== 'undefined' && (window.devicePixelRatio || 1) > 1;
}
