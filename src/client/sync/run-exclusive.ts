type LockManagerLike = {
  request<T>(name: string, callback: () => Promise<T>): Promise<T>;
};

const tabMutexes = new Map<string, Promise<unknown>>();

/**
 * Runs `fn` while holding the named lock: one runner across every tab of the origin
 * (Web Locks), or, where navigator.locks is absent (jsdom, old browsers), one runner in this tab.
 */
export function runExclusive<T>(name: string, fn: () => Promise<T>): Promise<T> {
  const locks = (globalThis.navigator as { locks?: LockManagerLike } | undefined)?.locks;
  if (locks && typeof locks.request === 'function') return locks.request(name, fn);
  const previous = tabMutexes.get(name) ?? Promise.resolve();
  const run = previous.then(fn, fn);
  const settled = run.then(
    () => undefined,
    () => undefined,
  );
  tabMutexes.set(name, settled);
  void settled.then(() => {
    if (tabMutexes.get(name) === settled) tabMutexes.delete(name);
  });
  return run;
}
