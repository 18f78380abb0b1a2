/// <reference lib="webworker" />
/**
 * The sites canvas's worker: plays the calls the page's Leaflet renderer recorded
 * (canvas-calls.ts) on the two canvases the page handed over. Rasterising thousands of circles,
 * and the browser's copy of each drawn canvas into memory for the compositor, then run on this
 * thread: on the page's they were the longest tasks of opening and panning the Sites map.
 */
import {
  playCalls,
  type CallBatch,
  type CallTargets,
  type CanvasesMessage,
  type DrawnMessage,
} from './canvas-calls';

const scope = self as unknown as DedicatedWorkerGlobalScope;
const targets: CallTargets = { canvases: [], contexts: [], current: 0 };

/**
 * Tells the page once the frame holding these calls is on its way to the screen: after the
 * worker's next animation frame, or 100 ms at most (a hidden page may run no frames).
 */
function tellDrawn(seq: number): void {
  let told = false;
  const tell = () => {
    if (told) return;
    told = true;
    scope.postMessage({ type: 'drawn', seq } satisfies DrawnMessage);
  };
  if (typeof scope.requestAnimationFrame === 'function') scope.requestAnimationFrame(tell);
  setTimeout(tell, 100);
}

scope.onmessage = (event: MessageEvent<CanvasesMessage | CallBatch>) => {
  const message = event.data;
  if ('type' in message) {
    targets.canvases = message.canvases;
    targets.contexts = message.canvases.map((c) => c.getContext('2d')!);
    return;
  }
  playCalls(message, targets, tellDrawn);
};
