/**
 * How a chart line looks, decided by what it is (its species, its season), never by its rank in
 * one report: Cx tarsalis is the same blue circles in every report a manager opens.
 */

/** Colour-blind-safe (Okabe–Ito based), each ≥ 3:1 against white as graphics need. */
export const SPECIES_COLOURS = ['#0072B2', '#C24E00', '#007A5A', '#7B3294', '#8C510A', '#B8336A'];
/** Totals over every species ("All species", the CDC vector index): none of the species'. */
export const ALL_SPECIES_COLOUR = '#1F2937';
export const MARKERS = ['circle', 'square', 'triangle'] as const;
export type Marker = (typeof MARKERS)[number];
/** Older seasons of the same group get the next pattern (the newest is solid). */
export const SEASON_DASHES = [undefined, '7 5', '2 4', '9 4 2 4'] as const;

export type LineStyle = { stroke: string; marker: Marker };

/** A small stable number for a name that is not in the lookups (FNV-1a). */
function nameHash(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

const STYLES = SPECIES_COLOURS.length * MARKERS.length;

/** The style of the n-th of the agency's species: six colours, then the same with other marks. */
function styleAt(n: number): LineStyle {
  const i = n % STYLES;
  return {
    stroke: SPECIES_COLOURS[i % SPECIES_COLOURS.length],
    marker: MARKERS[Math.floor(i / SPECIES_COLOURS.length)],
  };
}

/**
 * A species' style: by its place in the agency's species lookups (the order the lookups list
 * them, which reports do not change), so the first 18 species never share a look; a name the
 * lookups lack gets one from its spelling.
 */
export function speciesStyle(name: string, speciesOrder: readonly string[]): LineStyle {
  const at = speciesOrder.indexOf(name);
  return styleAt(at >= 0 ? at : nameHash(name));
}

/** A season's style, for lines of all species together: by the year itself. */
export function seasonStyle(year: number): LineStyle {
  return styleAt(year % SPECIES_COLOURS.length);
}

export const ALL_SPECIES_STYLE: LineStyle = { stroke: ALL_SPECIES_COLOUR, marker: 'circle' };
