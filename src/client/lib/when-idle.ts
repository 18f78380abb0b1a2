/**
 * Runs `work` once the page has been idle for a while: after `afterMs`, in the first idle period
 * the browser reports (requestIdleCallback; a plain timer where there is none). Returns a cancel
 * function. For work worth doing before it is asked for, never in the way of a tap: an idle
 * callback runs only when no input or rendering is waiting.
 */
export function whenIdle(work: () => void, afterMs = 1_000): () => void {
  let idle: number | null = null;
  const timer = setTimeout(() => {
    if (typeof requestIdleCallback === 'function') idle = requestIdleCallback(() => work());
    else work();
  }, afterMs);
  return () => {
    clearTimeout(timer);
    if (idle !== null) cancelIdleCallback(idle);
  };
}

/** How long after the `load` event a page never idle waits for an idle period (ms). */
export const SETTLED_IDLE_WAIT_MS = 2_000;
/**
 * How long a page whose `load` event has not come waits for it (ms): a request the document
 * waits for (an image on a weak signal) can hold `load` for minutes. Longer than any start that
 * loads (Home drawn and loaded within ~3–5 s on a mid-range tablet on slow 4G), so it only
 * ever serves a page stuck loading.
 */
export const SETTLED_LOAD_WAIT_MS = 10_000;

/**
 * Runs `work` once the page has loaded and then been idle: after the `load` event, in the first
 * idle period the browser reports (requestIdleCallback). Bounded: at most SETTLED_IDLE_WAIT_MS
 * after `load` on a page never idle (the callback's timeout), and at most SETTLED_LOAD_WAIT_MS
 * after this call when `load` does not come; so at most ~12 s after the call in all. Where
 * there is no idle callback (Safari, iPads in the field), right after `load`; where there is no
 * page (Node), at once. Returns a cancel function; `work` runs at most once.
 *
 * For work the technician did not ask for, that should not hold the first screen's thread: an
 * idle callback runs only when no input or rendering waits.
 */
export function whenPageSettled(work: () => void): () => void {
  if (typeof window === 'undefined') {
    work();
    return () => undefined;
  }
  let done = false;
  let idle: number | null = null;
  let loadTimer: ReturnType<typeof setTimeout> | null = null;
  const run = () => {
    if (done) return;
    cancel();
    done = true;
    work();
  };
  const afterLoad = () => {
    // Loaded: from here the idle callback's timeout is the bound, not the load timer.
    window.removeEventListener('load', afterLoad);
    if (loadTimer !== null) clearTimeout(loadTimer);
    loadTimer = null;
    if (typeof requestIdleCallback === 'function')
      idle = requestIdleCallback(run, { timeout: SETTLED_IDLE_WAIT_MS });
    else run();
  };
  const cancel = () => {
    window.removeEventListener('load', afterLoad);
    if (loadTimer !== null) clearTimeout(loadTimer);
    if (idle !== null) cancelIdleCallback(idle);
    loadTimer = null;
    idle = null;
  };
  if (document.readyState === 'complete') afterLoad();
  else {
    window.addEventListener('load', afterLoad);
    loadTimer = setTimeout(run, SETTLED_LOAD_WAIT_MS);
  }
  return () => {
    done = true;
    cancel();
  };
}
