import { useEffect, useState } from 'react';
import type { TraplineDb } from './database';

/** How this tab lost its database: cleared under it, or taken by a newer app in another tab. */
export type DbGone = 'lost' | 'superseded' | null;

const goneOf = (db: TraplineDb): DbGone =>
  db.storageLost ? 'lost' : db.superseded ? 'superseded' : null;

/**
 * Whether this tab lost its database (TraplineDb.storageLost: cleared, unsent changes may be
 * gone; TraplineDb.superseded: kept, but this tab can no longer save nor send). Once gone it stays
 * so until the page reloads.
 */
export function useDbGone(db: TraplineDb): DbGone {
  const [gone, setGone] = useState(() => goneOf(db));
  useEffect(() => {
    setGone(goneOf(db));
    return db.onSuperseded(() => setGone(goneOf(db)));
  }, [db]);
  return gone;
}
