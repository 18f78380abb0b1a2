import { createContext, useContext, useSyncExternalStore, type ReactNode } from 'react';
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

/** The live sync status: re-renders whenever counts, progress or connectivity change. */
export function useSyncStatus(): SyncStatus {
  const engine = useSyncEngine();
  return useSyncExternalStore(
    (onChange) => {
      const unsubscribe = engine.subscribe(onChange);
      return () => {
        unsubscribe();
      };
    },
    engine.getStatus,
    engine.getStatus,
  );
}
