import L from 'leaflet';
import { CallRecorder, type CanvasesMessage, type DrawnMessage } from './canvas-calls';

/** Leaflet's canvas renderer's members this file overrides or calls (leaflet's Canvas.js). */
type CanvasInternals = L.Canvas & {
  _map: L.Map & { _animatingZoom: boolean; _draggableMoved(o: unknown): boolean };
  _container?: HTMLCanvasElement;
  _ctx?: unknown;
  _bounds: L.Bounds;
  _redrawBounds: L.Bounds | null;
  _redrawRequest: number | null;
  _onClick(e: Event): void;
  _onMouseMove(e: Event): void;
  _handleMouseOut(e: Event): void;
  _destroyContainer(): void;
  _update(): void;
};

type Proto = {
  _onClick(this: CanvasInternals, e: Event): void;
  _handleMouseOut(this: CanvasInternals, e: Event): void;
  _initContainer(this: CanvasInternals): void;
  _destroyContainer(this: CanvasInternals): void;
  _update(this: CanvasInternals): void;
  _clear(this: CanvasInternals): void;
  _reset(this: CanvasInternals): void;
  _onAnimZoom(this: CanvasInternals, e: L.ZoomAnimEvent): void;
  _onZoom(this: CanvasInternals): void;
  onAdd(this: CanvasInternals, map: L.Map): void;
};
const canvasProto = L.Canvas.prototype as unknown as Proto;
const rendererProto = L.Renderer.prototype as unknown as Proto;

/** The canvas in the worker's hands: the page's side of it. */
type WorkerSide = {
  worker: Worker;
  recorder: CallRecorder;
  /** The two placeholders; the one not shown is drawn on, then shown once drawn. */
  canvases: [HTMLCanvasElement, HTMLCanvasElement];
  shown: number;
  /** The canvas calls go to: the one shown, or the other while a move's redraw is under way. */
  drawing: number;
  /** The redraw whose `drawn` shows `drawing`; an earlier one's is stale. */
  seq: number;
};

type SitesCanvasThis = CanvasInternals & {
  _side?: WorkerSide | null;
  _drawOnPage(): void;
  _hideUntilDrawn(): void;
};

/** Whether this browser can hand a canvas to a worker (Chromium 69 on; not jsdom). */
function canHandOver(): boolean {
  return (
    typeof Worker === 'function' &&
    typeof HTMLCanvasElement !== 'undefined' &&
    typeof HTMLCanvasElement.prototype.transferControlToOffscreen === 'function' &&
    typeof queueMicrotask === 'function'
  );
}

/** A canvas element as Leaflet's own, listening for taps and the pointer. */
function placeholder(renderer: CanvasInternals): HTMLCanvasElement {
  const canvas = document.createElement('canvas');
  L.DomEvent.on(canvas, 'mousemove', renderer._onMouseMove, renderer);
  L.DomEvent.on(
    canvas,
    'click dblclick mousedown mouseup contextmenu',
    renderer._onClick,
    renderer,
  );
  L.DomEvent.on(canvas, 'mouseout', renderer._handleMouseOut, renderer);
  (canvas as unknown as Record<string, unknown>)._leaflet_disable_events = true;
  L.DomUtil.addClass(canvas, 'leaflet-zoom-animated');
  return canvas;
}

/** The placeholder not shown: hidden, so neither seen nor tapped, until its redraw is drawn. */
const BACK = 'sites-canvas-back';

function show(side: WorkerSide, index: number, renderer: CanvasInternals): void {
  side.shown = index;
  const [now, before] = [side.canvases[index], side.canvases[1 - index]];
  now.classList.remove(BACK);
  before.classList.add(BACK);
  // Leaflet marks the canvas under a pointer resting on a site (the hand cursor) only when the
  // site under it changes: the mark goes with the canvas shown.
  now.classList.toggle('leaflet-interactive', before.classList.contains('leaflet-interactive'));
  renderer._container = now;
}

/**
 * The canvas of sites' circles. Leaflet's canvas renderer keeps its geometry, taps, the pointer's
 * site name and its zoom animation; the pixels are drawn in a worker (sites-canvas.worker.ts), on
 * a canvas handed over with `transferControlToOffscreen`. A trace of panning 20,000 sites at 4x
 * CPU throttle had the page's longest tasks in this canvas: drawing the circles at each move's
 * end, and the browser's copy of the drawn canvas into fresh memory for the compositor
 * (`ProduceCanvasResource`, 65–107 ms). Both now run on the worker's thread.
 *
 * A move's redraw goes to a second, hidden canvas at the new position, shown once the worker has
 * drawn it: moved at once and drawn later, the one canvas would show the old circles shifted by
 * the move for a frame or more. Where a canvas cannot be handed over (an old browser, jsdom) or
 * the worker fails, it draws on the page as Leaflet does.
 *
 * And a click ending a drag is not hit-tested: Leaflet's canvas measured the map's position for
 * it (`getBoundingClientRect`, a forced style and layout right after the drag's end had moved
 * everything: 10 ms and more of that task at 4x throttle) only to have the map drop the click as
 * the end of a drag.
 */
export const SitesCanvas = L.Canvas.extend({
  _onClick(this: SitesCanvasThis, e: Event) {
    if (e.type === 'click' && this._map._draggableMoved(this._map)) return;
    canvasProto._onClick.call(this, e);
  },

  // Showing one placeholder in place of the other moves the pointer from one to the other
  // without it moving: the site under it is still the one under it (its name stays shown).
  _handleMouseOut(this: SitesCanvasThis, e: MouseEvent) {
    const side = this._side;
    if (side && side.canvases.includes(e.relatedTarget as HTMLCanvasElement)) return;
    canvasProto._handleMouseOut.call(this, e);
  },

  _initContainer(this: SitesCanvasThis) {
    if (!canHandOver()) {
      canvasProto._initContainer.call(this);
      return;
    }
    const worker = new Worker(new URL('./sites-canvas.worker.ts', import.meta.url), {
      type: 'module',
      name: 'sites-canvas',
    });
    const canvases: [HTMLCanvasElement, HTMLCanvasElement] = [placeholder(this), placeholder(this)];
    const offscreen = canvases.map((c) => c.transferControlToOffscreen());
    worker.postMessage(
      { type: 'canvases', canvases: offscreen } satisfies CanvasesMessage,
      offscreen,
    );
    const recorder = new CallRecorder((batch) => worker.postMessage(batch, [batch.calls.buffer]));
    const side: WorkerSide = { worker, recorder, canvases, shown: 0, drawing: 0, seq: 0 };
    worker.onmessage = (event: MessageEvent<DrawnMessage>) => {
      if (this._side !== side || event.data.seq !== side.seq) return;
      if (side.drawing !== side.shown) show(side, side.drawing, this);
    };
    // The worker's script did not load, or an error escaped it: the circles are drawn on the page.
    worker.onerror = (event) => {
      event.preventDefault();
      if (this._side === side) this._drawOnPage();
    };
    this._side = side;
    this._ctx = recorder;
    show(side, 0, this);
  },

  onAdd(this: SitesCanvasThis, map: L.Map) {
    canvasProto.onAdd.call(this, map);
    // Leaflet put the canvas shown in the pane; the other goes beside it.
    const side = this._side;
    if (side) this.getPane()!.appendChild(side.canvases[1 - side.shown]);
  },

  _destroyContainer(this: SitesCanvasThis) {
    const side = this._side;
    if (!side) {
      canvasProto._destroyContainer.call(this);
      return;
    }
    this._side = null;
    // Left set, a cancelled frame would keep Leaflet from asking for another redraw.
    if (this._redrawRequest) L.Util.cancelAnimFrame(this._redrawRequest);
    this._redrawRequest = null;
    side.worker.terminate();
    for (const canvas of side.canvases) {
      L.DomEvent.off(canvas);
      L.DomUtil.remove(canvas);
    }
    delete this._ctx;
    delete this._container;
  },

  /** As Leaflet's, with the canvas sized in the worker and the redraw on the hidden canvas. */
  _update(this: SitesCanvasThis) {
    const side = this._side;
    if (!side) {
      canvasProto._update.call(this);
      return;
    }
    if (this._map._animatingZoom && this._bounds) return;
    rendererProto._update.call(this);
    const bounds = this._bounds;
    const size = bounds.getSize();
    const min = bounds.min!;
    const m = L.Browser.retina ? 2 : 1;
    side.drawing = 1 - side.shown;
    side.seq += 1;
    const canvas = side.canvases[side.drawing];
    L.DomUtil.setPosition(canvas, min);
    canvas.style.width = `${size.x}px`;
    canvas.style.height = `${size.y}px`;
    const ctx = side.recorder;
    ctx.target(side.drawing);
    ctx.size(m * size.x, m * size.y);
    if (m !== 1) ctx.scale(m, m);
    ctx.translate(-min.x, -min.y);
    // The circles redraw themselves on the canvas being drawn.
    this.fire('update');
    ctx.drawn(side.seq);
  },

  _clear(this: SitesCanvasThis) {
    const side = this._side;
    if (side && !this._redrawBounds) side.recorder.clearAll();
    else canvasProto._clear.call(this);
  },

  // Leaflet's zoom animation and view reset place the canvas of the view they start from (its
  // `_center` and `_zoom`, which a move's `_update` has already set to the view being drawn).
  // Were the canvas shown still the one of the view before, it would show those circles out of
  // place; were the one being drawn shown, it would show what it held before (two views back).
  // So while a redraw is under way, neither is shown: the map has no circles until it is drawn.
  _onAnimZoom(this: SitesCanvasThis, e: L.ZoomAnimEvent) {
    this._hideUntilDrawn();
    rendererProto._onAnimZoom.call(this, e);
  },

  _onZoom(this: SitesCanvasThis) {
    this._hideUntilDrawn();
    rendererProto._onZoom.call(this);
  },

  _reset(this: SitesCanvasThis) {
    canvasProto._reset.call(this);
    this._hideUntilDrawn();
  },

  _hideUntilDrawn(this: SitesCanvasThis) {
    const side = this._side;
    if (!side || side.drawing === side.shown) return;
    side.canvases[side.shown].classList.add(BACK);
    this._container = side.canvases[side.drawing];
  },

  /** The worker failed: a canvas of the page's own takes the placeholders' place, redrawn. */
  _drawOnPage(this: SitesCanvasThis) {
    const pane = this._map ? this.getPane() : undefined;
    this._destroyContainer();
    canvasProto._initContainer.call(this);
    L.DomUtil.addClass(this._container!, 'leaflet-zoom-animated');
    if (!pane) return;
    pane.appendChild(this._container!);
    this._update();
  },
}) as unknown as new (options?: L.RendererOptions) => L.Canvas;
