import {
  createContext,
  useCallback,
  useContext,
  useRef,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import type { SyncEngine, SyncStatus } from '../../sync';

const SyncEngineContext = createContext<SyncEngine | null>(null);

/** Makes the signed-in user's sync engine available to the sync-status components. */
export function SyncEngineProvider({
  engine,
  children,
}: {
  engine: SyncEngine;
  children: ReactNode;
}) {
  return <SyncEngineContext.Provider value={engine}>{children}</SyncEngineContext.Provider>;
}

export function useSyncEngine(): SyncEngine {
  const engine = useContext(SyncEngineContext);
  if (!engine) throw new Error('useSyncEngine needs a <SyncEngineProvider> above it');
  return engine;
}

/** The same engine, the same subscription: a new function each render would subscribe again. */
function useSubscribe(engine: SyncEngine): (onChange: () => void) => () => void {
  return useCallback((onChange: () => void) => engine.subscribe(onChange), [engine]);
}

/** The live sync status: re-renders whenever counts, progress or connectivity change. */
export function useSyncStatus(): SyncStatus {
  const engine = useSyncEngine();
  return useSyncExternalStore(useSubscribe(engine), engine.getStatus, engine.getStatus);
}

/** Equal as flat values: the same primitive, or objects whose own fields are each the same. */
function sameFields<T>(a: T, b: T): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => Object.is(a[k as keyof T], b[k as keyof T]));
}

/**
 * What `select` reads of the live status, re-rendering only when that changes (field by field):
 * the status changes with every page a pull stores and every answer a drain gets, and a screen
 * that shows none of it must not be drawn again for each (Home during a first pull of 20,000
 * sites: a render a page, on the tablet's page thread, beside the pull's own work).
 */
export function useSyncStatusOf<T>(select: (status: SyncStatus) => T): T {
  const engine = useSyncEngine();
  // The last status read, by which `select`, and what it selected: the same value is returned
  // while the selection is equal, as useSyncExternalStore needs a stable snapshot to not render
  // again. A new `select` (a new record shown) selects again.
  const last = useRef<{ status: SyncStatus; select: typeof select; value: T } | null>(null);
  const read = () => {
    const status = engine.getStatus();
    const held = last.current;
    if (held?.status === status && held.select === select) return held.value;
    const value = select(status);
    const kept = held && sameFields(held.value, value) ? held.value : value;
    last.current = { status, select, value: kept };
    return kept;
  };
  return useSyncExternalStore(useSubscribe(engine), read, read);
}
