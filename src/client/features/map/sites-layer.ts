import L from 'leaflet';
import type { MapFeature } from '../../lib/site-index';

/** New markers added per frame. */
const SLICE = 30;

/** Cluster markers grow with their count; the smallest is still a 44 px target for a glove. */
function clusterSize(count: number): number {
  return count < 10 ? 44 : count < 100 ? 48 : count < 1000 ? 54 : 60;
}

function shortCount(count: number): string {
  return count < 1000 ? String(count) : `${(count / 1000).toFixed(count < 10_000 ? 1 : 0)}k`;
}

/**
 * The sites and clusters in view, drawn incrementally: `show()` adds the features it has not
 * drawn and removes those gone, keyed by MapFeature.key, so a changed site redraws its marker
 * alone and an unchanged cluster is not touched. Sites are canvas circles (a tap within 14 px of
 * the 8 px circle selects it: a 44 px target); clusters are DOM markers with their count, focusable
 * and named for screen readers.
 */
export class SitesLayer {
  private readonly group = L.layerGroup();
  private readonly drawn = new Map<string, L.Layer>();
  private readonly renderer = L.canvas({ padding: 0.5, tolerance: 14 });
  /** The frame that adds the next slice of new markers, if any is waiting. */
  private pending: number | null = null;

  constructor(
    private readonly map: L.Map,
    private readonly onSelect: (localId: string) => void,
  ) {
    this.group.addTo(map);
  }

  show(features: readonly MapFeature[]): void {
    if (this.pending !== null) cancelAnimationFrame(this.pending);
    this.pending = null;
    const keep = new Set<string>();
    const added: MapFeature[] = [];
    for (const f of features) {
      keep.add(f.key);
      if (!this.drawn.has(f.key)) added.push(f);
    }
    for (const [key, layer] of this.drawn) {
      if (keep.has(key)) continue;
      this.group.removeLayer(layer);
      this.drawn.delete(key);
    }
    // New markers go on in slices, one per frame: a hundred markers made in one task is a long
    // task on a slow tablet, and the map stays movable meanwhile. A newer show() drops the rest.
    const addSlice = (from: number) => {
      this.pending = null;
      for (const f of added.slice(from, from + SLICE)) {
        const layer = this.draw(f);
        this.drawn.set(f.key, layer);
        layer.addTo(this.group);
      }
      if (from + SLICE < added.length)
        this.pending = requestAnimationFrame(() => addSlice(from + SLICE));
    };
    addSlice(0);
  }

  get size(): number {
    return this.drawn.size;
  }

  remove(): void {
    if (this.pending !== null) cancelAnimationFrame(this.pending);
    this.pending = null;
    this.group.remove();
    this.drawn.clear();
  }

  private draw(f: MapFeature): L.Layer {
    if (f.kind === 'cluster') {
      const size = clusterSize(f.count);
      const label = `${f.count.toLocaleString('en-US')} sites here: zoom in`;
      return L.marker([f.lat, f.lon], {
        icon: L.divIcon({
          className: 'site-cluster',
          html: `<span aria-hidden="true">${shortCount(f.count)}</span>`,
          iconSize: [size, size],
        }),
        title: label,
        alt: label,
        riseOnHover: true,
      }).on('click', () => {
        this.map.setView([f.lat, f.lon], Math.max(f.zoomTo, this.map.getZoom() + 1));
      });
    }
    const synced = f.site.state === 'synced';
    return L.circleMarker([f.lat, f.lon], {
      renderer: this.renderer,
      radius: 8,
      weight: 2,
      color: synced ? '#14532d' : '#92400e',
      fillColor: synced ? '#22c55e' : '#f59e0b',
      fillOpacity: 0.85,
    })
      .bindTooltip(`${f.site.code} ${f.site.name}`)
      .on('click', () => this.onSelect(f.site.id));
  }
}
