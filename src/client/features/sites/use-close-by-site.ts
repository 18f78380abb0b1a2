import { useMemo } from 'react';
import { nearestTo } from '../../lib/geo';
import { placeOf, type SiteCheck } from '../../lib/site-index';
import { otherSites } from './other-sites';

/** Another site this close (m) to the place is named under the map: perhaps the same one. */
const CLOSE_BY_M = 100;

/**
 * The agency's site nearest the place, when close enough to be the same one placed twice.
 * Measured when the place changes, not at every keystroke (20,000 sites on a slow tablet).
 */
export function useCloseBySite(
  sites: readonly SiteCheck[],
  selfLocalId: string | null,
  position: [number, number] | null,
) {
  const [placeLat, placeLon] = position ?? [Number.NaN, Number.NaN];
  return useMemo(() => {
    if (!Number.isFinite(placeLat) || !Number.isFinite(placeLon)) return null;
    const others = otherSites(sites, selfLocalId).flatMap((s) => {
      const at = placeOf(s);
      return at ? [{ ...at, site: s }] : [];
    });
    const [nearest] = nearestTo(others, { lat: placeLat, lon: placeLon }, 1);
    return nearest && nearest.meters <= CLOSE_BY_M ? nearest : null;
  }, [sites, selfLocalId, placeLat, placeLon]);
}
