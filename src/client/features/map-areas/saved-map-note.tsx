import { useEffect, useState } from 'react';
import { useMap } from 'react-leaflet';
import { useI18n } from '../../lib/i18n';
import { useOnline } from '../../lib/use-online';
import { viewIsSaved } from './area-coverage';
import { listAreas, onAreasChange } from './saved-areas';
import { cachedTileSource } from './tile-source';
import './map-areas.css';

/**
 * Mount inside a react-leaflet map (a child of MapContainer): offline, when the view is outside
 * every saved map area, says so over the map, so a blank background reads as "no saved map
 * here" rather than "no sites here". Says nothing online (tiles load from the server).
 */
export function SavedMapNote() {
  const map = useMap();
  const intl = useI18n();
  const online = useOnline();
  const [saved, setSaved] = useState(true);
  useEffect(() => {
    // Online the note says nothing, so the view is not checked: the check reads and validates
    // the saved areas from localStorage, and on every move's end it was part of a pan's longest
    // task (3–15 of 241 samples of a zoom's end, at 4x CPU).
    if (online) return;
    const check = () => {
      const b = map.getBounds();
      const view = {
        west: b.getWest(),
        south: b.getSouth(),
        east: b.getEast(),
        north: b.getNorth(),
      };
      setSaved(viewIsSaved(listAreas(), view, map.getZoom(), cachedTileSource().tileUrl));
    };
    check();
    map.on('moveend zoomend', check);
    const off = onAreasChange(check);
    return () => {
      map.off('moveend zoomend', check);
      off();
    };
  }, [map, online]);
  if (online || saved) return null;
  return (
    <div className="saved-map-note" role="status">
      {intl.formatMessage({
        id: 'mapAreas.noSavedHere',
        defaultMessage:
          'No saved map here: offline, only map areas saved in Offline map areas (and places viewed recently) are drawn.',
      })}
    </div>
  );
}
