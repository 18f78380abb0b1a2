import { useSyncExternalStore } from 'react';
import { listAreas, onAreasChange, type SavedArea } from './saved-areas';

let snapshot: { raw: string | null; areas: SavedArea[] } = { raw: null, areas: [] };

/** listAreas as a stable snapshot: a new array only when the stored list changed. */
function read(): SavedArea[] {
  const raw = localStorage.getItem('trapline.mapAreas');
  if (raw !== snapshot.raw) snapshot = { raw, areas: listAreas() };
  return snapshot.areas;
}

/** The saved areas, newest first, kept current with changes in this tab and others. */
export function useSavedAreas(): SavedArea[] {
  return useSyncExternalStore((onChange) => {
    const off = onAreasChange(onChange);
    window.addEventListener('storage', onChange);
    return () => {
      off();
      window.removeEventListener('storage', onChange);
    };
  }, read);
}
