import { useLiveQuery } from 'dexie-react-hooks';
import L from 'leaflet';
import { useEffect, useRef } from 'react';
import { useMap } from 'react-leaflet';
import type { SiteRow } from '../../db/database';
import { useDb } from '../../db/db-context';
import { BaseMap, DEFAULT_CENTER } from './base-map';

function coordsOf(site: SiteRow): [number, number] | null {
  const c = (site.data.shape as { coordinates?: [number, number] } | undefined)?.coordinates;
  return c && Number.isFinite(c[0]) && Number.isFinite(c[1]) ? [c[1], c[0]] : null;
}

/** All sites as canvas circle markers in one layer, rebuilt when the sites change. */
function SiteMarkers({
  sites,
  onSelect,
}: {
  sites: SiteRow[];
  onSelect: (localId: string) => void;
}) {
  const map = useMap();
  const fitted = useRef(false);
  const select = useRef(onSelect);
  useEffect(() => {
    select.current = onSelect;
  }, [onSelect]);
  useEffect(() => {
    // A tap within 16 px of a marker selects it: an 8 px circle is too small for a gloved finger.
    const renderer = L.canvas({ padding: 0.5, tolerance: 16 });
    const layer = L.layerGroup();
    const points: L.LatLngExpression[] = [];
    for (const site of sites) {
      const ll = coordsOf(site);
      if (!ll) continue;
      points.push(ll);
      L.circleMarker(ll, {
        renderer,
        radius: 8,
        weight: 2,
        color: site.syncState === 'synced' ? '#14532d' : '#92400e',
        fillColor: site.syncState === 'synced' ? '#22c55e' : '#f59e0b',
        fillOpacity: 0.85,
      })
        .bindTooltip(`${site.code} ${site.name}`)
        .on('click', () => select.current(site.localId))
        .addTo(layer);
    }
    layer.addTo(map);
    if (!fitted.current && points.length > 0) {
      // Not animated: the map opens framed on the sites, and no zoom animation is left running
      // for a technician who leaves Sites at once.
      map.fitBounds(L.latLngBounds(points), { padding: [24, 24], maxZoom: 14, animate: false });
      fitted.current = true;
    }
    return () => {
      layer.remove();
    };
  }, [map, sites]);
  return null;
}

/** The agency's sites on a map; tapping one opens it. */
export default function SitesMap({ onSelect }: { onSelect: (localId: string) => void }) {
  const db = useDb();
  const sites = useLiveQuery(
    async () => (await db.sites.toArray()).filter((s) => !s.deleted),
    [db],
  );
  return (
    <BaseMap center={DEFAULT_CENTER} zoom={10} label="Map of sites">
      {sites ? <SiteMarkers sites={sites} onSelect={onSelect} /> : null}
    </BaseMap>
  );
}
