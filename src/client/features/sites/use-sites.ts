import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useState } from 'react';
import type { CollectionRow, SiteRow } from '../../db/database';
import { useDb } from '../../db/db-context';
import { readSiteCollections } from '../../db/record-reads';
import { useSiteIndex, type SearchResult } from '../../lib/site-index';

export function useSite(localId: string): SiteRow | null | undefined {
  const db = useDb();
  return useLiveQuery(async () => (await db.sites.get(localId)) ?? null, [db, localId]);
}

/** The site's collections, newest first. */
export function useSiteCollections(localId: string, limit = 10): CollectionRow[] | undefined {
  const db = useDb();
  return useLiveQuery(() => readSiteCollections(db, localId, limit), [db, localId, limit]);
}

/**
 * Sites whose code or name contains `query`, the first `limit` in code order, with how many match
 * and how many there are (undefined until the sites are first read), or why they cannot be read. The search runs in the site
 * index worker: the main thread never reads every site record (20,000 of them blocked the page).
 */
export function useSiteSearch(
  query: string,
  limit: number,
): { found: SearchResult | undefined; failure: string | null } {
  const db = useDb();
  const { index, summary, failure } = useSiteIndex(db.name);
  const [result, setResult] = useState<{ query: string; result: SearchResult } | undefined>();
  const version = summary?.version;
  useEffect(() => {
    if (version === undefined) return;
    let live = true;
    void index.search(query, limit).then((r) => {
      if (live && r) setResult({ query, result: r });
    });
    return () => {
      live = false;
    };
  }, [index, version, query, limit]);
  return { found: result?.result, failure };
}
