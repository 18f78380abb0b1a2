/**
 * `fn` at most once per `ms`: the first call runs at once, later calls within the window are
 * folded into one trailing call with the latest argument. `cancel()` drops a pending trailing call
 * (call it when what the updates describe has ended, so a stale one cannot land after).
 */
export function throttle<T>(fn: (value: T) => void, ms: number) {
  let last = -Infinity;
  let pending: { value: T } | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const run = (value: T) => {
    last = Date.now();
    fn(value);
  };
  const call = (value: T) => {
    const wait = last + ms - Date.now();
    if (wait <= 0 && !timer) return run(value);
    pending = { value };
    timer ??= setTimeout(
      () => {
        timer = null;
        const next = pending;
        pending = null;
        if (next) run(next.value);
      },
      Math.max(0, wait),
    );
  };
  call.cancel = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    pending = null;
  };
  return call;
}
