import { anyFormDirty } from '../form/dirty-forms';
import { pageNavigation } from './page-navigation';

/**
 * A lazy screen's code that did not arrive: the dynamic import rejected (Chromium "Failed to
 * fetch dynamically imported module", Safari "Importing a module script failed", Firefox "error
 * loading dynamically imported module"), Vite's preload of its CSS failed, or a webpack-style
 * ChunkLoadError. Offline with the chunk not cached, or an old chunk gone after a new version.
 */
const CHUNK_MESSAGE =
  /Failed to fetch dynamically imported module|Importing a module script failed|error loading dynamically imported module|Unable to preload CSS|Loading (CSS )?chunk \S+ failed/i;

export function isChunkLoadError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return error.name === 'ChunkLoadError' || CHUNK_MESSAGE.test(error.message);
}

/** While a reload asked for by a page is this recent, the next page shows the error instead. */
export const RELOAD_GUARD_MS = 5 * 60_000;
/** A reload asked for this long ago that has not happened (the page is still here) did not work. */
const RELOAD_WAIT_MS = 15_000;
const FLAG = 'trapline.chunkReloadAt';

export type ChunkRecovery = {
  /**
   * What to do about a chunk that failed to load: `reloading` when a reload is (now) under way,
   * `gave-up` when the error should be shown (a reload already failed to fix it).
   */
  recover(error: unknown): 'reloading' | 'gave-up';
};

export type ChunkRecoveryOptions = {
  storage: Pick<Storage, 'getItem' | 'setItem'>;
  /** When this page load began (ms epoch). */
  pageStartedAt: () => number;
  now: () => number;
  /** Reloads the page; `cause` is the error that asked for it. */
  reload: (cause: unknown) => void;
  /** A form holds unsaved typing: never reload under it. */
  formDirty: () => boolean;
};

/**
 * One automatic reload per RELOAD_GUARD_MS, so it can never loop. The flag in sessionStorage
 * holds when the reload was asked for:
 * - set after this page began: this page already asked, the reload is under way (unless that
 *   was more than RELOAD_WAIT_MS ago: then it did not happen, show the error);
 * - set by an earlier page within the guard: the reload did not help, show the error;
 * - absent or older: set it and reload.
 * If the flag cannot be read or written, never reload.
 */
export function createChunkRecovery(options: ChunkRecoveryOptions): ChunkRecovery {
  return {
    recover(error) {
      let askedAt: number;
      try {
        askedAt = Number(options.storage.getItem(FLAG) ?? Number.NaN);
      } catch {
        return 'gave-up';
      }
      const now = options.now();
      if (askedAt >= options.pageStartedAt() && now - askedAt < RELOAD_WAIT_MS) return 'reloading';
      if (now - askedAt < RELOAD_GUARD_MS || options.formDirty()) return 'gave-up';
      try {
        options.storage.setItem(FLAG, String(now));
      } catch {
        return 'gave-up';
      }
      options.reload(error);
      return 'reloading';
    },
  };
}

/** The app's recovery: this tab's session storage, its page load, its forms. */
export const chunkRecovery: ChunkRecovery = createChunkRecovery({
  get storage() {
    return window.sessionStorage;
  },
  pageStartedAt: () => performance.timeOrigin,
  now: () => Date.now(),
  reload: (cause) => {
    // Said in the console: which of the app's reloads this was and which code did not come
    // (support; e2e page logs).
    console.warn('Trapline reloads the page: a screen’s code did not load.', String(cause));
    pageNavigation.reload();
  },
  formDirty: anyFormDirty,
});

/**
 * Vite dispatches `vite:preloadError` on window when a dynamic import or its preloaded
 * dependencies fail. Recovered the same way as in the boundary; the event is not cancelled, so
 * the import still rejects and the boundary around it shows the reload under way (cancelling
 * would resolve the import with `undefined`). Returns the unsubscribe.
 */
export function watchPreloadErrors(recovery: ChunkRecovery = chunkRecovery): () => void {
  const onPreloadError = (event: VitePreloadErrorEvent) => {
    recovery.recover(event.payload);
  };
  window.addEventListener('vite:preloadError', onPreloadError);
  return () => window.removeEventListener('vite:preloadError', onPreloadError);
}
