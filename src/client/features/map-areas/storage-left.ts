import { useCallback, useEffect, useState } from 'react';

export type StorageLeft = { left: number; quota: number } | null;

/** What the browser says is left for this site (navigator.storage.estimate); null if unknown. */
export async function readStorageLeft(): Promise<StorageLeft> {
  const estimate = await navigator.storage?.estimate?.().catch(() => null);
  if (!estimate || estimate.quota === undefined) return null;
  return { left: Math.max(0, estimate.quota - (estimate.usage ?? 0)), quota: estimate.quota };
}

/** The storage left, read on mount and again on `refresh()` (after a download or a deletion). */
export function useStorageLeft(): [StorageLeft | undefined, () => void] {
  const [value, setValue] = useState<StorageLeft | undefined>(undefined);
  const refresh = useCallback(() => {
    void readStorageLeft().then(setValue);
  }, []);
  useEffect(refresh, [refresh]);
  return [value, refresh];
}
