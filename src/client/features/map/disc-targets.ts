import L from 'leaflet';
import './disc-targets.css';

/** What a target is over and what tapping it does. */
export type DiscTarget = {
  lat: number;
  lon: number;
  /** Width and height (px): the disc's, 44 at least for a glove. */
  size: number;
  className: string;
  /** Its name for screen readers and its tooltip: what a tap does. */
  label: string;
  tap: () => void;
};

type MapInternals = L.Map & { _draggableMoved(o: unknown): boolean };

/**
 * The elements over the discs of clusters and groups (count-disc.ts): transparent, sized as the
 * disc, each a button in the tab order named by its title. They are plain elements in one
 * container, not Leaflet markers: a marker registered half a dozen listeners of its own and two on
 * the map (whose lists Leaflet scans for duplicates at each registration), about half a
 * millisecond of script each at 4x CPU throttle, and a view has 100–200 discs. Here one listener
 * on the container serves them all, and one pass repositions them when the zoom changes.
 *
 * The container hides during a zoom's animation (Leaflet's `leaflet-zoom-hide`): one element
 * restyled, where each marker was. The discs scale with the canvas meanwhile.
 */
export class DiscTargets {
  private readonly container = L.DomUtil.create('div', 'disc-targets leaflet-zoom-hide');
  private readonly targets = new Map<HTMLElement, DiscTarget>();

  constructor(
    private readonly map: L.Map,
    /** False: shown only (the placement map), no tap, not in the tab order. */
    private readonly interactive: boolean,
  ) {
    map.getPane('markerPane')!.append(this.container);
    map.on('zoom viewreset', this.place);
    // Shown only: a tap on a disc is the map's (on the placement map, it places the site).
    if (!interactive) {
      this.container.style.pointerEvents = 'none';
      return;
    }
    this.container.addEventListener('click', this.onClick);
    this.container.addEventListener('keydown', this.onKey);
  }

  /** Puts a target on the map; returns its element, for `remove`. */
  add(target: DiscTarget): HTMLElement {
    const element = document.createElement('div');
    element.className = target.className;
    element.title = target.label;
    element.style.width = element.style.height = `${target.size}px`;
    element.style.margin = `${-target.size / 2}px 0 0 ${-target.size / 2}px`;
    if (this.interactive) {
      element.setAttribute('role', 'button');
      element.tabIndex = 0;
    }
    this.targets.set(element, target);
    this.position(element, target);
    this.container.append(element);
    return element;
  }

  remove(element: HTMLElement): void {
    this.targets.delete(element);
    element.remove();
  }

  destroy(): void {
    this.map.off('zoom viewreset', this.place);
    this.targets.clear();
    this.container.remove();
  }

  private position(element: HTMLElement, target: DiscTarget): void {
    const at = this.map.latLngToLayerPoint([target.lat, target.lon]);
    element.style.left = `${at.x}px`;
    element.style.top = `${at.y}px`;
  }

  /** Layer points change with the zoom (and a view reset), not with a pan. */
  private readonly place = (): void => {
    for (const [element, target] of this.targets) this.position(element, target);
  };

  private readonly onClick = (e: MouseEvent): void => {
    const target = this.targetOf(e);
    if (!target) return;
    // The map's own click (which puts the preview away) is not told of a target's tap.
    L.DomEvent.stopPropagation(e);
    // The click that ends a drag begun on a target is the drag's, as on a marker.
    if ((this.map as MapInternals)._draggableMoved(this.map)) return;
    target.tap();
  };

  private readonly onKey = (e: KeyboardEvent): void => {
    if (e.key !== 'Enter' && e.key !== ' ') return;
    const target = this.targetOf(e);
    if (!target) return;
    e.preventDefault();
    target.tap();
  };

  private targetOf(e: Event): DiscTarget | undefined {
    return e.target instanceof HTMLElement ? this.targets.get(e.target) : undefined;
  }
}
