import type { SavedArea } from './saved-areas';
import { bboxContains, type Bbox } from './tile-math';

/**
 * Whether some saved area holds the map's view: the view's box inside the area's and its zoom
 * in the area's range, from the current tile source. (Two areas that together cover the view
 * count as not covering it: the note errs toward saying tiles may be missing.)
 */
export function viewIsSaved(
  areas: SavedArea[],
  view: Bbox,
  zoom: number,
  tileUrl: string,
): boolean {
  return areas.some(
    (a) =>
      a.tileUrl === tileUrl && zoom >= a.minZoom && zoom <= a.maxZoom && bboxContains(a.bbox, view),
  );
}
