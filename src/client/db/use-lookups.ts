import { useLiveQuery } from 'dexie-react-hooks';
import type { LookupsDocument } from '#shared';
import { useDb } from './db-context';
import { EMPTY_LOOKUPS, readLookups } from './refresh-lookups';

/** The cached lookups, live: forms re-render when a refresh lands. */
export function useLookups(): {
  lookups: LookupsDocument;
  storedAt: number | null;
  loaded: boolean;
} {
  const db = useDb();
  const row = useLiveQuery(() => readLookups(db).then((r) => r ?? null), [db]);
  return {
    lookups: row?.document ?? EMPTY_LOOKUPS,
    storedAt: row?.storedAt ?? null,
    loaded: row !== undefined,
  };
}
