import L from 'leaflet';
import { escapeHtml } from '#shared/escape-html';
import { countDisc, type DiscLook } from './count-disc';
import { DiscTargets } from './disc-targets';
import { siteCircle } from './site-circle';
import type { IndexedSite, MapFeature } from '../../lib/site-index';

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
 * Script time per frame for putting a view's parts on the map (ms). 30 cluster markers made in
 * one frame took 50–95 ms at 4x CPU throttle (a trace of panning), and the style, layout and
 * paint of what a frame added come on top: a budget in time, not in parts, keeps each frame's
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

/** What a marker of many sites is called (its target's title), said in the person's language. */
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

/**
 * One thing to put on the map for a feature: a site's circle or a disc on the canvas, or the
 * target element over a disc. Made when its turn comes, so a view left early costs nothing more.
 */
type Part = { key: string; make: () => L.Layer | HTMLElement };

type CanvasInternals = L.Canvas & {
  _map: L.Map | null;
  _redrawBounds: L.Bounds | null;
  _redrawRequest: number | null;
  _redraw(): void;
  _extendRedrawBounds(layer: L.Layer): void;
};

/** The canvas of the sites' circles and the discs, with what Leaflet's lacks (below). */
type SitesCanvasType = L.Canvas & {
  /** While true, paths added or taken off mark their place to redraw, without a redraw yet. */
  held: boolean;
  /** Ends `held`: one redraw, in the next frame, of every place marked meanwhile. */
  release(): void;
};

/**
 * The canvas of sites' circles and discs, except that:
 * - a click ending a drag is not hit-tested: Leaflet's canvas measured the map's position for it
 *   (`getBoundingClientRect`, a forced style and layout right after the drag's end had moved
 *   everything: 10 ms and more of that task at 4x throttle) only to have the map drop the click
 *   as the end of a drag;
 * - a view's parts, added over a few frames, are drawn in one redraw (`held`): each frame that
 *   changes the canvas has the browser copy its whole bitmap to the compositor, 15–30 ms of that
 *   frame at 4x CPU throttle (a trace of panning).
 */
const SitesCanvas = L.Canvas.extend({
  held: false,
  _requestRedraw(this: SitesCanvasType & CanvasInternals, layer: L.Layer) {
    if (this.held) this._extendRedrawBounds(layer);
    else
      (L.Canvas.prototype as unknown as { _requestRedraw(l: L.Layer): void })._requestRedraw.call(
        this,
        layer,
      );
  },
  release(this: SitesCanvasType & CanvasInternals) {
    this.held = false;
    if (this._map && this._redrawBounds && !this._redrawRequest)
      this._redrawRequest = L.Util.requestAnimFrame(this._redraw, this);
  },
  // Leaflet 1.9.4 redraws at once when the view changes (`_updatePaths`) and forgets the frame it
  // had asked for a path added just before, so taking the canvas off the map cannot cancel that
  // frame: it would then draw on a context already gone (a TypeError) when Sites is left right
  // after a zoom.
  _redraw(this: L.Canvas & { _ctx?: CanvasRenderingContext2D; _redrawRequest: number | null }) {
    if (!this._ctx) {
      this._redrawRequest = null;
      return;
    }
    (L.Canvas.prototype as unknown as { _redraw(): void })._redraw.call(this);
  },
  _onClick(this: L.Canvas & { _map: L.Map & { _draggableMoved(o: unknown): boolean } }, e: Event) {
    if (e.type === 'click' && this._map._draggableMoved(this._map)) return;
    (L.Canvas.prototype as unknown as { _onClick(e: Event): void })._onClick.call(this, e);
  },
}) as unknown as new (options?: L.RendererOptions) => SitesCanvasType;

/**
 * The sites and clusters in view, drawn incrementally: `show()` adds the features it has not
 * drawn and removes those gone, keyed by MapFeature.key, so a changed site redraws its marker
 * alone and an unchanged cluster is not touched. Sites are canvas circles (a tap within 14 px of
 * the 8 px circle selects it: a 44 px target); clusters and groups are discs with their count
 * on the same canvas, under transparent targets focusable and named for screen readers. A tap on a site or a group is handed to `onTap`
 * (the map shows a preview: a tap never opens a site straight away); a tap on a cluster zooms in.
 */
export class SitesLayer {
  private readonly group = L.layerGroup();
  /** The layers drawn for each feature's key: a circle, or a disc and its target. */
  private readonly drawn = new Map<string, (L.Layer | HTMLElement)[]>();
  /** The elements over the discs, to tap, focus and name them. */
  private readonly targets: DiscTargets;
  /**
   * Padding a quarter of the view, as the features asked for around it (sites-map.tsx): the
   * canvas is reallocated at every move's end, and at half a view each side it was four views'
   * worth of pixels, the longest part of a pan on a slow tablet.
   */
  private readonly renderer = new SitesCanvas({ padding: 0.25, tolerance: 14 });
  /** The frame that does the next slice of `adding`, if any is waiting. */
  private pending: number | null = null;
  /** Parts of the latest show()'s features not drawn yet, from `next` on. */
  private adding: readonly Part[] = [];
  private next = 0;
  /** How many of `adding`, from the first, are drawn on the canvas. */
  private onCanvas = 0;
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
    this.targets = new DiscTargets(map, onTap !== null);
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
    // Every feature added has a circle or a disc: the canvas redraws once they are all on it,
    // and what goes meanwhile goes in that redraw too.
    if (added.length > 0) this.renderer.held = true;
    else this.renderer.release();
    // What is gone from the view goes at once: circles and discs are paths on the canvas, and
    // a target is an element of its own, with no listener (disc-targets.ts). Leaflet markers
    // took long enough to take off that they were hidden first and removed in slices.
    for (const [key, layers] of this.drawn) {
      if (keep.has(key)) continue;
      this.drawn.delete(key);
      for (const layer of layers)
        if (layer instanceof HTMLElement) this.targets.remove(layer);
        else this.group.removeLayer(layer);
    }
    // A newer show() drops what an earlier one had still to add: it describes a view left.
    // The canvas's parts first, sites' circles and then discs: each frame that changes the canvas
    // has the browser copy its whole bitmap, so all of them are drawn in the first frame or two,
    // in one redraw, and the discs over the circles. The discs' targets follow.
    const circles: Part[] = [];
    const discs: Part[] = [];
    const targets: Part[] = [];
    for (const f of added) {
      if (f.kind === 'site') circles.push({ key: f.key, make: () => this.drawSite(f) });
      else {
        discs.push({
          key: f.key,
          make: () => countDisc([f.lat, f.lon], this.look(f), this.renderer),
        });
        targets.push({ key: f.key, make: () => this.drawTarget(f) });
      }
    }
    this.adding = [...circles, ...discs, ...targets];
    this.next = 0;
    this.onCanvas = circles.length + discs.length;
    if (this.pending !== null) cancelAnimationFrame(this.pending);
    this.pending = null;
    this.work();
  }

  /**
   * New parts go on for FRAME_BUDGET_MS at most, the rest in the next frames: the map stays
   * movable meanwhile. The first part of a call always goes on.
   */
  private readonly work = (): void => {
    this.pending = null;
    const until = performance.now() + FRAME_BUDGET_MS;
    let first = true;
    while (this.next < this.adding.length && (first || performance.now() < until)) {
      first = false;
      const part = this.adding[this.next];
      this.next += 1;
      const layer = part.make();
      const layers = this.drawn.get(part.key);
      if (layers) layers.push(layer);
      else this.drawn.set(part.key, [layer]);
      if (!(layer instanceof HTMLElement)) layer.addTo(this.group);
    }
    if (this.renderer.held && this.next >= this.onCanvas) this.renderer.release();
    if (this.next < this.adding.length) this.pending = requestAnimationFrame(this.work);
  };

  get size(): number {
    return this.drawn.size;
  }

  remove(): void {
    if (this.pending !== null) cancelAnimationFrame(this.pending);
    this.pending = null;
    this.adding = [];
    if (this.prepared !== null) clearTimeout(this.prepared);
    // The canvas first: paths taken off a canvas still on the map ask it for one more redraw.
    this.renderer.remove();
    this.group.remove();
    this.targets.destroy();
    this.drawn.clear();
  }

  private drawSite(f: Extract<MapFeature, { kind: 'site' }>): L.Layer {
    const circle = siteCircle(
      [f.lat, f.lon],
      f.site.state === 'synced',
      this.renderer,
      this.onTap !== null,
    );
    const onTap = this.onTap;
    if (!onTap) return circle;
    // Leaflet writes a tooltip's text as HTML: the name is escaped to show as typed ("Ditch <north>").
    return circle
      .bindTooltip(escapeHtml(`${f.site.code} ${f.site.name}`))
      .on('click', () => onTap({ kind: 'site', site: f.site }));
  }

  /**
   * A cluster: a dark blue disc with its count in white (8.6:1), not the sites' green or amber,
   * so it is never taken for a site. A group (sites whose markers would overlap): the sites' own
   * dark green (white on it 9.7:1), dark amber when one is not yet sent (7:1), 44 px.
   */
  private look(f: Extract<MapFeature, { kind: 'cluster' | 'group' }>): DiscLook {
    if (f.kind === 'cluster')
      return {
        fill: 'rgba(30, 58, 138, 0.9)',
        halo: 'rgba(30, 58, 138, 0.5)',
        count: shortCount(f.count),
        size: clusterSize(f.count),
      };
    const count = String(f.sites.length);
    return f.sites.every((s) => s.state === 'synced')
      ? { fill: '#14532d', halo: 'rgba(20, 83, 45, 0.5)', count, size: 44 }
      : { fill: '#92400e', halo: 'rgba(146, 64, 14, 0.5)', count, size: 44 };
  }

  /**
   * The target over a disc, as large as the disc (44 px at least, for a glove) and named for
   * what a tap does. A cluster's tap zooms in; a group's lists its sites, or zooms in where a
   * long list comes apart.
   */
  private drawTarget(f: Extract<MapFeature, { kind: 'cluster' | 'group' }>): HTMLElement {
    const { size } = this.look(f);
    const at = { lat: f.lat, lon: f.lon, size };
    const zoomIn = (to: number) =>
      this.map.setView([f.lat, f.lon], Math.max(to, this.map.getZoom() + 1));
    if (f.kind === 'cluster')
      return this.targets.add({
        ...at,
        className: 'site-cluster',
        label: this.words.cluster(f.count),
        tap: () => zoomIn(f.zoomTo),
      });
    const count = f.sites.length;
    const zooms = count > LIST_UP_TO && f.zoomTo !== null;
    return this.targets.add({
      ...at,
      className: f.sites.every((s) => s.state === 'synced')
        ? 'site-group'
        : 'site-group site-group-unsent',
      label: this.words.group(count, this.onTap ? (zooms ? 'zoom' : 'choose') : 'show'),
      tap: () => {
        if (zooms) zoomIn(f.zoomTo!);
        else
          this.onTap?.({ kind: 'group', sites: f.sites, lat: f.lat, lon: f.lon, zoomTo: f.zoomTo });
      },
    });
  }
}
