import L from 'leaflet';
import { escapeHtml } from '#shared/escape-html';
import type { IndexedSite, MapFeature } from '../../lib/site-index';
import { SitesCanvas } from './sites-canvas';

/**
 * What a tap on the map chose: one site, or a group of sites whose markers overlap (listed to
 * choose from; `zoomTo` where they come apart, null when they never do).
 */
export type MapTap =
  | { kind: 'site'; site: IndexedSite }
  | { kind: 'group'; sites: IndexedSite[]; lat: number; lon: number; zoomTo: number | null };

/**
 * A group of more sites than this is zoomed into when tapped (where it can be), as a cluster: a
 * list that long is slower to read than the map. Fewer are listed at once.
 */
export const LIST_UP_TO = 8;

/**
 * Script time per frame for putting markers on and taking them off (ms). 30 cluster markers made
 * in one frame took 50–95 ms at 4x CPU throttle (a trace of panning), and the style, layout and
 * paint of what a frame added come on top: a budget in time, not in markers, keeps each frame's
 * task short on whatever tablet, while a view still fills within a few frames.
 */
const FRAME_BUDGET_MS = 8;

/** Cluster markers grow with their count; the smallest is still a 44 px target for a glove. */
function clusterSize(count: number): number {
  return count < 10 ? 44 : count < 100 ? 48 : count < 1000 ? 54 : 60;
}

function shortCount(count: number): string {
  return count < 1000 ? String(count) : `${(count / 1000).toFixed(count < 10_000 ? 1 : 0)}k`;
}

/**
 * A disc with a count, made with DOM calls: a `divIcon` given its HTML as a string parsed it with
 * the HTML parser for every marker, the largest part of making one (a CPU profile of panning at
 * 4x throttle). The count is hidden from screen readers: the marker's title names it.
 */
function countIcon(className: string, count: string, size: number): L.DivIcon {
  const shown = document.createElement('span');
  shown.setAttribute('aria-hidden', 'true');
  shown.textContent = count;
  return L.divIcon({ className, html: shown, iconSize: [size, size] });
}

/**
 * A marker placed by left/top instead of Leaflet's 3D transform, and hidden during a zoom's
 * animation instead of moved along: each transformed marker is a compositing layer of its own,
 * and with a hundred and more cluster markers in view a trace of panning showed the compositor's
 * commit at 120–170 ms per frame at 4x CPU throttle. Laid out flat they paint into the map's
 * layer. The next view's clusters replace them once the zoom ends.
 */
const FlatMarker = L.Marker.extend({
  onAdd(this: L.Marker & { _zoomAnimated: boolean }, map: L.Map) {
    this._zoomAnimated = false;
    L.Marker.prototype.onAdd.call(this, map);
    return this;
  },
  _setPos(this: L.Marker & { _icon?: HTMLElement; _zIndex: number }, pos: L.Point) {
    if (this._icon) {
      this._icon.style.left = `${pos.x}px`;
      this._icon.style.top = `${pos.y}px`;
      this._icon.style.zIndex = String(pos.y + (this.options.zIndexOffset ?? 0));
    }
    this._zIndex = pos.y + (this.options.zIndexOffset ?? 0);
  },
}) as unknown as new (latlng: L.LatLngExpression, options?: L.MarkerOptions) => L.Marker;

/**
 * The sites and clusters in view, drawn incrementally: `show()` adds the features it has not
 * drawn and removes those gone, keyed by MapFeature.key, so a changed site redraws its marker
 * alone and an unchanged cluster is not touched. Sites are canvas circles (a tap within 14 px of
 * the 8 px circle selects it: a 44 px target); clusters and groups are DOM markers with their
 * count, focusable and named for screen readers. A tap on a site or a group is handed to `onTap`
 * (the map shows a preview: a tap never opens a site straight away); a tap on a cluster zooms in.
 */
/** What a marker of many sites is called (its title and alt), said in the person's language. */
export type MarkerWords = {
  /** A cluster: "1,204 sites here: zoom in". */
  cluster: (count: number) => string;
  /** Overlapping sites: "3 sites here: choose one" / ": zoom in", or only "3 sites here". */
  group: (count: number, action: 'zoom' | 'choose' | 'show') => string;
};

const ENGLISH_MARKER_WORDS: MarkerWords = {
  cluster: (count) => `${count.toLocaleString('en-US')} sites here: zoom in`,
  group: (count, action) =>
    action === 'show'
      ? `${count} sites here`
      : `${count} sites here: ${action === 'zoom' ? 'zoom in' : 'choose one'}`,
};

/** Whether a feature is drawn on the canvas (a site's circle), not as an element. */
const onCanvas = (f: MapFeature): boolean => f.kind === 'site';

export class SitesLayer {
  private readonly group = L.layerGroup();
  private readonly drawn = new Map<string, L.Layer>();
  /**
   * Padding a tenth of the view (Leaflet's default): the canvas is cleared and redrawn at every
   * move's end, and the frame after it hands the compositor a copy of the whole canvas, into
   * fresh memory when the canvas has been still for a while (a trace of panning 20,000 sites at
   * 4x CPU throttle: the longest task of the pan and of opening Sites, 68-107 ms at a quarter of
   * the view each side). At half a view each side it was four views' worth of pixels, at a
   * quarter 2.25, at a tenth 1.44: in six A/B pairs the longest task panning fell from 62-112 ms
   * (mean 90) to 57-72 (mean 67), and opening Sites from a mean of 226 ms to 178. A drag of more
   * than a tenth of the view shows the sites it uncovers when it ends; the clusters and groups,
   * asked for a quarter of the view around it (site-features.tsx), are there all along.
   * The drawing and that copy now run in the canvas's worker (sites-canvas.ts); fewer pixels
   * still cost that thread and the tablet's memory less.
   */
  private readonly renderer = new SitesCanvas({ padding: 0.1, tolerance: 14 });
  /** The frame that does the next slice of `adding` and `leaving`, if any is waiting. */
  private pending: number | null = null;
  /** Features of the latest show() not drawn yet, from `next` on. */
  private adding: readonly MapFeature[] = [];
  private next = 0;
  /** Markers of earlier views, hidden, still to be taken off the map. */
  private leaving: L.Layer[] = [];
  /** The task that adds the canvas to the map, until it has run. */
  private prepared: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly map: L.Map,
    /** Null: the sites are only shown (the placement map), every tap goes to the map. */
    private readonly onTap: ((tap: MapTap) => void) | null,
    /** The markers' names in the person's language (the layer draws outside React). */
    private readonly words: MarkerWords = ENGLISH_MARKER_WORDS,
  ) {
    this.group.addTo(map);
    // The canvas is made (its first sizing is the costly part) in a task of its own, not in the
    // one that draws the first sites after the map opened. A layer that only shows makes it
    // when it first draws a site (Leaflet adds a path's renderer then): zoomed out on a large
    // district it draws none.
    if (!onTap) return;
    this.prepared = setTimeout(() => {
      this.prepared = null;
      if (!map.hasLayer(this.renderer)) map.addLayer(this.renderer);
    }, 0);
  }

  show(features: readonly MapFeature[]): void {
    const keep = new Set<string>();
    const added: MapFeature[] = [];
    for (const f of features) {
      // Shown only (the placement map): sites and groups, where a duplicate could be placed;
      // a density cluster says nothing about that, and a hundred of them made opening New site
      // at 20,000 sites draw a hundred markers before the form was ready.
      if (!this.onTap && f.kind === 'cluster') continue;
      keep.add(f.key);
      if (!this.drawn.has(f.key)) added.push(f);
    }
    // Markers gone from the view are hidden at once and taken off the map in slices: taking off
    // the 100–200 markers a zoom replaces, in the task that received the new view, was that
    // pan's longest task (a trace at 4x CPU throttle). A hidden marker is neither seen nor tapped.
    // Sites' circles are on the canvas, no element each: they go at once.
    for (const [key, layer] of this.drawn) {
      if (keep.has(key)) continue;
      this.drawn.delete(key);
      const element = layer instanceof L.Marker ? layer.getElement() : undefined;
      if (element) {
        element.style.display = 'none';
        this.leaving.push(layer);
      } else this.group.removeLayer(layer);
    }
    // A newer show() drops what an earlier one had still to add: it describes a view left.
    // Sites' circles first: each frame that changes the canvas has the browser copy its whole
    // bitmap (paint and commit, the larger part of such a frame at 4x CPU throttle), so they are
    // all drawn in the first frames, not one frame after another between the DOM markers.
    this.adding = [...added.filter(onCanvas), ...added.filter((f) => !onCanvas(f))];
    this.next = 0;
    if (this.pending !== null) cancelAnimationFrame(this.pending);
    this.pending = null;
    this.work();
  }

  /**
   * New markers go on, then hidden ones come off, for FRAME_BUDGET_MS at most, the rest in the
   * next frames: the map stays movable meanwhile. The first marker of a call always goes on.
   */
  private readonly work = (): void => {
    this.pending = null;
    const until = performance.now() + FRAME_BUDGET_MS;
    let first = true;
    while (this.next < this.adding.length && (first || performance.now() < until)) {
      first = false;
      const f = this.adding[this.next];
      this.next += 1;
      const layer = this.draw(f);
      this.drawn.set(f.key, layer);
      layer.addTo(this.group);
    }
    while (this.leaving.length > 0 && performance.now() < until)
      this.group.removeLayer(this.leaving.pop()!);
    if (this.next < this.adding.length || this.leaving.length > 0)
      this.pending = requestAnimationFrame(this.work);
  };

  get size(): number {
    return this.drawn.size;
  }

  remove(): void {
    if (this.pending !== null) cancelAnimationFrame(this.pending);
    this.pending = null;
    this.adding = [];
    // Taken off with the group.
    this.leaving = [];
    if (this.prepared !== null) clearTimeout(this.prepared);
    this.group.remove();
    this.renderer.remove();
    this.drawn.clear();
  }

  private draw(f: MapFeature): L.Layer {
    if (f.kind === 'cluster') {
      const size = clusterSize(f.count);
      const label = this.words.cluster(f.count);
      return new FlatMarker([f.lat, f.lon], {
        icon: countIcon('site-cluster', shortCount(f.count), size),
        title: label,
        alt: label,
        riseOnHover: true,
        ...this.passive,
      }).on('click', () => {
        this.map.setView([f.lat, f.lon], Math.max(f.zoomTo, this.map.getZoom() + 1));
      });
    }
    if (f.kind === 'group') return this.drawGroup(f);
    const synced = f.site.state === 'synced';
    const circle = L.circleMarker([f.lat, f.lon], {
      renderer: this.renderer,
      radius: 8,
      weight: 2,
      color: synced ? '#14532d' : '#92400e',
      fillColor: synced ? '#22c55e' : '#f59e0b',
      fillOpacity: 0.85,
      interactive: this.onTap !== null,
      // The tap is the site's: the map's own click (which closes the preview) is not told.
      bubblingMouseEvents: false,
    });
    const onTap = this.onTap;
    if (!onTap) return circle;
    // Leaflet writes a tooltip's text as HTML: the name is escaped to show as typed ("Ditch <north>").
    return circle
      .bindTooltip(escapeHtml(`${f.site.code} ${f.site.name}`))
      .on('click', () => onTap({ kind: 'site', site: f.site }));
  }

  /** Marker options of a layer that only shows: not a target, not in the tab order. */
  private get passive(): L.MarkerOptions {
    return this.onTap ? {} : { interactive: false, keyboard: false };
  }

  /**
   * Sites whose markers would overlap: one disc (dark green, amber-brown if any is not yet sent)
   * with their count, a 44 px target. A tap lists them, or zooms in where a long list comes apart.
   */
  private drawGroup(f: Extract<MapFeature, { kind: 'group' }>): L.Layer {
    const count = f.sites.length;
    const synced = f.sites.every((s) => s.state === 'synced');
    const zooms = count > LIST_UP_TO && f.zoomTo !== null;
    const label = this.words.group(count, this.onTap ? (zooms ? 'zoom' : 'choose') : 'show');
    return new FlatMarker([f.lat, f.lon], {
      icon: countIcon(synced ? 'site-group' : 'site-group site-group-unsent', String(count), 44),
      title: label,
      alt: label,
      riseOnHover: true,
      ...this.passive,
    }).on('click', () => {
      if (zooms) this.map.setView([f.lat, f.lon], Math.max(f.zoomTo!, this.map.getZoom() + 1));
      else
        this.onTap?.({ kind: 'group', sites: f.sites, lat: f.lat, lon: f.lon, zoomTo: f.zoomTo });
    });
  }
}
