import { useLiveQuery } from 'dexie-react-hooks';
import type { CollectionRow, PoolRow, PoolTestRow, SiteRow } from '../../db/database';
import { useDb } from '../../db/db-context';
import { mayDeleteSynced, neverSent } from '../../db/delete-record';
import { readPoolsWithTests } from '../../db/record-reads';
import { entriesOf } from '../../db/record-tables';

export function useCollection(localId: string): CollectionRow | null | undefined {
  const db = useDb();
  return useLiveQuery(async () => (await db.collections.get(localId)) ?? null, [db, localId]);
}

/** Recent local collections (for common species), newest first. */
export function useRecentCollections(limit = 200): CollectionRow[] | undefined {
  const db = useDb();
  return useLiveQuery(
    async () =>
      (await db.collections.orderBy('collectionDate').reverse().limit(limit).toArray()).filter(
        (c) => !c.deleted,
      ),
    [db, limit],
  );
}

export function useSiteRow(localId: string | null): SiteRow | null | undefined {
  const db = useDb();
  return useLiveQuery(
    async () => (localId ? ((await db.sites.get(localId)) ?? null) : null),
    [db, localId],
  );
}

/** The collection's pools (not deleted) and each pool's tests, in the order they were made. */
export function usePoolsOf(
  collectionLocalId: string,
): { pool: PoolRow; tests: PoolTestRow[] }[] | undefined {
  const db = useDb();
  return useLiveQuery(() => readPoolsWithTests(db, collectionLocalId), [db, collectionLocalId]);
}

/**
 * Whether the signed-in user may delete this collection now, by the rule deleteRecord applies:
 * a manager always, anyone while it never left the tablet. Read with its outbox entries, live:
 * a collection saved offline is tried at once and may be on the server from then on.
 */
export function useMayDeleteCollection(collection: CollectionRow | null | undefined) {
  const db = useDb();
  const localId = collection?.localId ?? null;
  const serverId = collection?.serverId ?? null;
  return useLiveQuery(
    async () =>
      localId === null
        ? false
        : mayDeleteSynced() || neverSent({ serverId }, await entriesOf(db, localId)),
    [db, localId, serverId],
  );
}
