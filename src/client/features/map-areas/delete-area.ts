import { tilesOnlyIn } from './area-tiles';
import { AREAS_CACHE, listAreas, removeArea, type SavedArea } from './saved-areas';

/** Deletes a saved area and the tiles no other saved area needs; returns how many were freed. */
export async function deleteArea(area: SavedArea): Promise<number> {
  const others = listAreas().filter((a) => a.id !== area.id);
  const cache = await caches.open(AREAS_CACHE);
  const urls = tilesOnlyIn(area, others);
  // The record goes first: a tile whose area is gone is never shown as saved, even if the
  // deletion is interrupted (a later delete of an overlapping area, or Refresh, sorts it out).
  removeArea(area.id);
  for (let i = 0; i < urls.length; i += 64) {
    await Promise.all(urls.slice(i, i + 64).map((u) => cache.delete(u)));
  }
  if (listAreas().length === 0) await caches.delete(AREAS_CACHE);
  return urls.length;
}
