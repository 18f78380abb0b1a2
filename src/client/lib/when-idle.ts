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

/**
 * Runs `work` once the page has loaded and then been idle: after the `load` event, in the first
 * idle period the browser reports (requestIdleCallback), at most `timeoutMs` after the load.
 * Where there is no idle callback (Safari), right after the load; where there is no page (Node),
 * at once. Returns a cancel function. For work the technician did not ask for, that should not
 * hold the first screen's thread: an idle callback runs only when no input or rendering waits.
 */
export function whenPageSettled(work: () => void, timeoutMs = 2_000): () => void {
  if (typeof window === 'undefined') {
    work();
    return () => undefined;
  }
  let idle: number | null = null;
  const afterLoad = () => {
    if (typeof requestIdleCallback === 'function')
      idle = requestIdleCallback(() => work(), { timeout: timeoutMs });
    else work();
  };
  if (document.readyState === 'complete') afterLoad();
  else window.addEventListener('load', afterLoad, { once: true });
  return () => {
    window.removeEventListener('load', afterLoad);
    if (idle !== null) cancelIdleCallback(idle);
  };
}
