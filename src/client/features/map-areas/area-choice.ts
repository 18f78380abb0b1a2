import { countTiles, MAX_LATITUDE, MAX_ZOOM, type Bbox } from './tile-math';

/** The most tiles one area may have: a district at street level, not a whole state. */
export const MAX_AREA_TILES = 30_000;

export type RectangleText = { north: string; south: string; west: string; east: string };
export type AreaChoice = {
  kind: 'sites' | 'rectangle';
  rectangle: RectangleText;
  minZoom: number;
  maxZoom: number;
};
export type ChoiceErrors = Partial<Record<keyof RectangleText | 'zoom' | 'tiles', string>>;

function degrees(
  text: string,
  limit: number,
  name: string,
  errors: ChoiceErrors,
  key: keyof RectangleText,
) {
  const value = Number(text.trim());
  if (text.trim() === '' || !Number.isFinite(value)) {
    errors[key] = `Enter the ${name} edge in decimal degrees`;
    return NaN;
  }
  if (Math.abs(value) > limit) {
    errors[key] = `The ${name} edge must be between -${limit} and ${limit}`;
    return NaN;
  }
  return value;
}

/** The rectangle typed in, checked: each edge a number in range, north above south, east of west. */
export function parseRectangle(r: RectangleText): { bbox: Bbox | null; errors: ChoiceErrors } {
  const errors: ChoiceErrors = {};
  const north = degrees(r.north, Math.floor(MAX_LATITUDE * 100) / 100, 'north', errors, 'north');
  const south = degrees(r.south, Math.floor(MAX_LATITUDE * 100) / 100, 'south', errors, 'south');
  const west = degrees(r.west, 180, 'west', errors, 'west');
  const east = degrees(r.east, 180, 'east', errors, 'east');
  if (!errors.north && !errors.south && north <= south)
    errors.south = 'The south edge must be below the north edge';
  if (!errors.west && !errors.east && east <= west)
    errors.east = 'The east edge must be east of the west edge';
  const ok = Object.keys(errors).length === 0;
  return { bbox: ok ? { north, south, west, east } : null, errors };
}

/** The tile count of a box and zoom range, or why it cannot be downloaded. */
export function checkTiles(
  bbox: Bbox,
  minZoom: number,
  maxZoom: number,
): { tiles: number; errors: ChoiceErrors } {
  if (minZoom > maxZoom || minZoom < 0 || maxZoom > MAX_ZOOM)
    return { tiles: 0, errors: { zoom: '"From zoom" must not be above "To zoom"' } };
  const tiles = countTiles(bbox, minZoom, maxZoom);
  if (tiles > MAX_AREA_TILES) {
    return {
      tiles,
      errors: {
        tiles: `That is ${tiles.toLocaleString('en-US')} tiles; one area holds at most ${MAX_AREA_TILES.toLocaleString('en-US')}. Choose a smaller area or a lower "To zoom".`,
      },
    };
  }
  return { tiles, errors: {} };
}
