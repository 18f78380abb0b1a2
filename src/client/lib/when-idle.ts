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
