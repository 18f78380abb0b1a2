import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useState } from 'react';
import type { CollectionRow, SiteRow } from '../../db/database';
import { useDb } from '../../db/db-context';
import { siteCheckOf, useSiteIndex, type SearchResult, type SiteCheck } from '../../lib/site-index';

/**
 * Every site on the tablet that is not deleted, as the site form checks a new code and place
 * against them (SiteCheck), live: from the site index worker, asked again whenever the sites
 * change. Read here, every site record was deserialised on the page (20,000 of them: a 1.2 s
 * freeze opening New site on a throttled tablet) and read again with every site a drain sent.
 * Where there is no worker (or it failed to read the sites), the sites are read here, as before.
 * Undefined while loading.
 */
export const useSiteChecks: () => SiteCheck[] | undefined =
  typeof Worker === 'undefined' ? useSiteChecksHere : useSiteChecksFromIndex;

function useSiteChecksHere(): SiteCheck[] | undefined {
  const db = useDb();
  return useLiveQuery(async () => readChecks(db), [db]);
}

async function readChecks(db: ReturnType<typeof useDb>): Promise<SiteCheck[]> {
  return (await db.sites.toArray()).filter((s) => !s.deleted).map(siteCheckOf);
}

function useSiteChecksFromIndex(): SiteCheck[] | undefined {
  const db = useDb();
  const { index, summary, failure } = useSiteIndex(db.name);
  const [checks, setChecks] = useState<SiteCheck[] | undefined>();
  const version = summary?.version;
  useEffect(() => {
    if (version === undefined) return;
    let live = true;
    void index.checks().then((c) => {
      if (live && c) setChecks(c);
    });
    return () => {
      live = false;
    };
  }, [index, version]);
  // The worker could not read the sites: the form still checks against them, read here.
  const here = useLiveQuery(async () => (failure === null ? null : readChecks(db)), [db, failure]);
  return here ?? checks;
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
