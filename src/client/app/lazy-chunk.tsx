import { lazy, useEffect, useState, type ComponentType } from 'react';
import { loadOnce } from '../lib/load-once';
import { whenIdle } from '../lib/when-idle';

/** A component whose code is a chunk of its own, and the way to fetch that chunk ahead. */
export type LazyChunk<P extends object> = ComponentType<P> & {
  /** Fetches the chunk (once; a failed fetch is tried afresh by the next call). */
  preload(): Promise<ComponentType<P>>;
};

/**
 * The component `load` brings, drawn straight from its chunk when the chunk is here at mount and
 * through React.lazy otherwise (with the nearest Suspense boundary's fallback while it comes).
 *
 * Why not React.lazy alone: through it even a chunk fetched ahead suspends at its first render,
 * and React reveals what suspended no sooner than 300 ms after the fallback was shown (its
 * fallback throttle). A trace of a first sign-in (4x CPU) had Home, and the database and pull its
 * effects start, wait ~290 ms on that timer; a first opening of Sites waited on it twice, for the
 * screen and then for its map.
 */
export function lazyChunk<P extends object>(load: () => Promise<ComponentType<P>>): LazyChunk<P> {
  let here: ComponentType<P> | null = null;
  const preload = loadOnce(() => load().then((component) => (here = component)));
  const Lazy = lazy(() => preload().then((component) => ({ default: component })));
  function Chunk(props: P) {
    // Chosen at mount and kept for the mount: the loaded component in place of the lazy one would
    // be another component to React, mounted afresh, every state in it (what was typed) lost.
    const [Component] = useState<ComponentType<P>>(() => here ?? Lazy);
    return <Component {...props} />;
  }
  return Object.assign(Chunk, { preload });
}

/**
 * Fetches the chunks of `screens` ahead, each in an idle period of its own once the one before
 * has come (the first after `afterMs`); returns the cancel. One idle callback asking for three
 * chunks was a task of ~200 ms during a first pull (4x CPU): each import adds its files' preload
 * links to the page, and each module graph is then evaluated in one task.
 */
export function preloadWhenIdle(
  screens: readonly { preload(): Promise<unknown> }[],
  afterMs: number,
): () => void {
  let stopped = false;
  let cancel = () => {};
  const next = (index: number, delay: number) => {
    const screen = screens[index];
    if (stopped || !screen) return;
    cancel = whenIdle(() => {
      void screen
        .preload()
        .catch(() => undefined)
        .then(() => next(index + 1, 0));
    }, delay);
  };
  next(0, afterMs);
  return () => {
    stopped = true;
    cancel();
  };
}

/** How long a screen is shown before the code of those it leads to is fetched. */
const FETCH_AHEAD_AFTER_MS = 2_000;

/**
 * Fetches the code of `screens`, the screens the one it sits in leads to, while the tablet is idle
 * (preloadWhenIdle), from when it mounts. `screens` is a module's constant: a new list each
 * render would start again.
 */
export function FetchAhead({ screens }: { screens: readonly { preload(): Promise<unknown> }[] }) {
  useEffect(() => preloadWhenIdle(screens, FETCH_AHEAD_AFTER_MS), [screens]);
  return null;
}
