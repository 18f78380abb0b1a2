import { useLiveQuery } from 'dexie-react-hooks';
import type { CollectionRow, SiteRow } from '../../db/database';
import { useDb } from '../../db/db-context';

/** Every site on the tablet that is not deleted, live (undefined while loading). */
export function useSites(): SiteRow[] | undefined {
  const db = useDb();
  return useLiveQuery(
    async () => (await db.sites.orderBy('code').toArray()).filter((s) => !s.deleted),
    [db],
  );
}

export function useSite(localId: string): SiteRow | null | undefined {
  const db = useDb();
  return useLiveQuery(async () => (await db.sites.get(localId)) ?? null, [db, localId]);
}

/** The site's collections, newest first. */
export function useSiteCollections(localId: string, limit = 10): CollectionRow[] | undefined {
  const db = useDb();
  return useLiveQuery(
    async () =>
      (await db.collections.where('parentLocalId').equals(localId).toArray())
        .filter((c) => !c.deleted)
        .sort((a, b) => Date.parse(b.collectionDate) - Date.parse(a.collectionDate))
        .slice(0, limit),
    [db, localId, limit],
  );
}

/** Case-insensitive match on code or name. */
export function matchesSite(site: Pick<SiteRow, 'code' | 'name'>, query: string): boolean {
  const q = query.trim().toLowerCase();
  return q === '' || site.code.includes(q) || site.name.toLowerCase().includes(q);
}
