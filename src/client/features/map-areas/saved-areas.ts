import { z } from 'zod';
import { AREAS_CACHE } from '../../lib/archive-source';
import type { Bbox } from './tile-math';

/**
 * Saved map areas: their tiles are in the Cache Storage cache AREAS_CACHE (the service worker
 * answers tile requests from it first, and no expiration touches it); what each area is lives
 * here, in localStorage (a few hundred bytes an area, read synchronously by the map's note).
 * Tiles are shared: one tile of two overlapping areas is stored once and freed with the last.
 */
export { AREAS_CACHE };
const KEY = 'trapline.mapAreas';

const bbox = z.object({ west: z.number(), south: z.number(), east: z.number(), north: z.number() });
const savedArea = z.object({
  id: z.string(),
  name: z.string(),
  bbox,
  minZoom: z.number().int(),
  maxZoom: z.number().int(),
  /** The tile template the tiles came from: another TILE_URL makes them useless. */
  tileUrl: z.string(),
  retina: z.boolean(),
  tiles: z.number().int(),
  /** Bytes of this area's tiles (tiles shared with another area count in both). */
  bytes: z.number(),
  savedAt: z.string(),
  /** False while a download is paused, interrupted or has failed tiles. */
  complete: z.boolean(),
});
export type SavedArea = z.infer<typeof savedArea> & { bbox: Bbox };

const listeners = new Set<() => void>();

export function listAreas(): SavedArea[] {
  try {
    const parsed = z.array(savedArea).safeParse(JSON.parse(localStorage.getItem(KEY) ?? '[]'));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

function write(areas: SavedArea[]): void {
  localStorage.setItem(KEY, JSON.stringify(areas));
  for (const l of listeners) l();
}

/** Adds the area or replaces the one with its id. */
export function putArea(area: SavedArea): void {
  const others = listAreas().filter((a) => a.id !== area.id);
  write([...others, area]);
}

export function removeArea(id: string): void {
  write(listAreas().filter((a) => a.id !== id));
}

/** Calls `onChange` after every change made in this tab; returns the unsubscribe. */
export function onAreasChange(onChange: () => void): () => void {
  listeners.add(onChange);
  return () => listeners.delete(onChange);
}
