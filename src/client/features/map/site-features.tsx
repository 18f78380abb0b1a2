import { useEffect, useMemo, useRef } from 'react';
import { useMap } from 'react-leaflet';
import type { IntlShape } from 'react-intl';
import type { SiteIndex } from '../../lib/site-index';
import { useI18n } from '../../lib/i18n';
import { SitesLayer, type MapTap, type MarkerWords } from './sites-layer';

/**
 * The names of markers, each count's formatted once: formatting an ICU plural message took longer
 * than making the marker it names (a CPU profile of panning at 4x throttle), and a view repeats
 * counts, as zooming back and forth repeats views.
 */
function markerWords(intl: IntlShape): MarkerWords {
  const clusters = new Map<number, string>();
  const groups = new Map<string, string>();
  const once = <K,>(kept: Map<K, string>, key: K, format: () => string): string => {
    let words = kept.get(key);
    if (words === undefined) kept.set(key, (words = format()));
    return words;
  };
  return {
    cluster: (count) =>
      once(clusters, count, () =>
        intl.formatMessage(
          {
            id: 'map.cluster',
            defaultMessage: '{count, plural, one {# site here} other {# sites here}}: zoom in',
          },
          { count },
        ),
      ),
    group: (count, action) =>
      once(groups, `${count} ${action}`, () =>
        intl.formatMessage(
          {
            id: 'map.group',
            defaultMessage:
              '{count, plural, one {# site here} other {# sites here}}{action, select, zoom {: zoom in} choose {: choose one} other {}}',
          },
          { count, action },
        ),
      ),
  };
}

/**
 * The clusters and sites in view (a quarter of the view around it too, so a short pan draws
 * nothing new), asked of the site index worker after each move and each change of the sites.
 */
export function SiteFeatures({
  index,
  version,
  onTap,
}: {
  index: SiteIndex;
  version: number;
  /** Told of taps on sites and groups, and null for a tap beside them; absent: only shown. */
  onTap?: (tap: MapTap | null) => void;
}) {
  const map = useMap();
  const intl = useI18n();
  // Read by the layer when it draws a marker: a language chosen later is used from then on.
  // Made again only when the language changes: its kept names are the old language's.
  const named = useMemo(() => markerWords(intl), [intl]);
  const words = useRef<MarkerWords>(named);
  words.current = named;
  const tapped = useRef(onTap);
  const passive = onTap === undefined;
  const refresh = useRef<(() => void) | null>(null);
  useEffect(() => {
    tapped.current = onTap;
  }, [onTap]);
  useEffect(() => {
    // A tap on the map away from every marker (null) puts the preview away.
    const drawn = new SitesLayer(map, passive ? null : (tap) => tapped.current?.(tap), {
      cluster: (count) => words.current.cluster(count),
      group: (count, action) => words.current.group(count, action),
    });
    let asked = 0;
    const ask = () => {
      const b = map.getBounds().pad(0.25);
      const question = ++asked;
      void index
        .view([b.getWest(), b.getSouth(), b.getEast(), b.getNorth()], map.getZoom())
        .then((features) => {
          // Only the latest answer is drawn: an earlier one describes a view already left.
          if (features && question === asked) drawn.show(features);
        });
    };
    refresh.current = ask;
    map.on('moveend', ask);
    return () => {
      asked = -1;
      refresh.current = null;
      map.off('moveend', ask);
      drawn.remove();
    };
  }, [map, index, passive]);
  useEffect(() => {
    refresh.current?.();
  }, [version]);
  return null;
}
