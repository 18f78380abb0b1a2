import { useLiveQuery } from 'dexie-react-hooks';
import { startTransition, useEffect, useRef, useState } from 'react';
import {
  applyChecks,
  siteCheckOf,
  useSiteIndex,
  type SiteCheck,
  type SiteIndex,
} from '../lib/site-index';
import type { SiteRecordLike } from '../lib/site-index-core';
import type { TraplineDb } from './database';
import { useDb } from './db-context';

/**
 * Every site on the tablet that is not deleted, as the site and collection forms use them (a new
 * site's code and place are checked against them, a collection's site is picked from them), live:
 * from the site index worker (SiteCheck, a few fields a site), asked again whenever the sites
 * change. Read here, every site record was deserialised on the page (20,000 of them: a 1.2 s
 * freeze opening New site on a throttled tablet) and read again with every site a drain sent.
 * Where there is no worker (jsdom) or it failed to read the sites, they are read here, as before.
 * Undefined while loading.
 */
export const useSiteChecks: () => SiteCheck[] | undefined =
  typeof Worker === 'undefined' ? useSiteChecksHere : useSiteChecksFromIndex;

function useSiteChecksHere(): SiteCheck[] | undefined {
  const db = useDb();
  return useLiveQuery(async () => readChecks(db), [db]);
}

async function readChecks(db: TraplineDb): Promise<SiteCheck[]> {
  return (await db.sites.toArray()).filter((s) => !s.deleted).map(siteCheckOf);
}

function useSiteChecksFromIndex(): SiteCheck[] | undefined {
  const db = useDb();
  const { index, summary, failure } = useSiteIndex(db.name);
  const [checks, setChecks] = useState<SiteCheck[] | undefined>();
  // What this form holds, as of which version of which index: with each change of the sites only
  // the checks changed since come over (a drain changes one site at a time; 20,000 checks
  // received again each time froze the form a quarter of a second on a tablet).
  const held = useRef<{ index: SiteIndex; version: number; checks: SiteCheck[] } | null>(null);
  const version = summary?.version;
  useEffect(() => {
    if (version === undefined) return;
    let live = true;
    const mine = held.current?.index === index ? held.current : null;
    void index.checksSince(mine?.version ?? null).then((answer) => {
      // Only the live effect's answer is taken, so what is held is still `mine`.
      if (!live || !answer) return;
      const next = applyChecks(mine?.checks ?? [], answer);
      held.current = { index, version: answer.version, checks: next };
      // A transition, as the index's other news (useSiteIndex): the form re-rendering with 20,000
      // checks renders in slices the page can interrupt, not in the task that received them.
      startTransition(() => setChecks(next));
    });
    return () => {
      live = false;
    };
  }, [index, version]);
  // The worker could not read the sites: the form still checks against them, read here.
  const here = useLiveQuery(async () => (failure === null ? null : readChecks(db)), [db, failure]);
  return here ?? checks;
}

/**
 * The checks with `row` as stored now in place of the index's copy (added if the index has not
 * read it yet, left out if deleted): a site saved a moment ago, which a form opens on, is there
 * before the site index's next read (it re-reads ~0.3 s after the last change, and 20,000 sites
 * take it about a second on a tablet).
 */
export function withStoredSite(
  checks: readonly SiteCheck[],
  row: SiteRecordLike | null | undefined,
): SiteCheck[] {
  const others = checks.filter((c) => c.localId !== row?.localId);
  return row && !row.deleted ? [...others, siteCheckOf(row)] : others;
}
