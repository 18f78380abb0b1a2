import type { SavedArea } from './saved-areas';
import { tileInArea, tilesOf } from './tile-math';
import { tileUrl } from './tile-url';

type AreaShape = Pick<SavedArea, 'bbox' | 'minZoom' | 'maxZoom' | 'tileUrl' | 'retina'>;

/** The URLs of every tile of an area, as the map asks for them. */
export function areaTileUrls(area: AreaShape): string[] {
  const urls: string[] = [];
  for (const t of tilesOf(area.bbox, area.minZoom, area.maxZoom))
    urls.push(tileUrl(area.tileUrl, t, area.retina));
  return urls;
}

/**
 * The URLs of the area's tiles that no other area needs: what deleting it frees. A tile is
 * another area's when that area covers it and stores it under the same URL (same source; a
 * template without {r} names a tile alike whatever the screen density it was saved on).
 */
export function tilesOnlyIn(area: AreaShape, others: AreaShape[]): string[] {
  const same = others.filter((o) => o.tileUrl === area.tileUrl);
  const urls: string[] = [];
  for (const t of tilesOf(area.bbox, area.minZoom, area.maxZoom)) {
    const url = tileUrl(area.tileUrl, t, area.retina);
    if (!same.some((o) => tileInArea(t, o) && tileUrl(o.tileUrl, t, o.retina) === url))
      urls.push(url);
  }
  return urls;
}
