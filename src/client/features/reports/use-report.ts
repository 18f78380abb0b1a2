import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import {
  readLastViewed,
  REPORT_KEY,
  startReportCache,
  writeLastViewed,
} from '../../lib/report-cache';
import type { ReportError } from './fetch-report';
import { fetchReport, type ReportResult } from './fetch-report';
import type { ReportKind } from './report-choice';

/** Query keys of reports: the owner first, so one user's cached reports never answer another's. */
export const reportQueries = {
  all: (owner: string) => [REPORT_KEY, owner] as const,
  one: (owner: string, kind: ReportKind, query: string) =>
    [REPORT_KEY, owner, kind, query] as const,
};

/**
 * `restored` once the owner's stored reports are back in the query cache (see lib/report-cache),
 * with the screen's URL search of the report the owner last viewed (null for none).
 */
export function useReportCacheRestored(owner: string): {
  restored: boolean;
  lastViewed: string | null;
} {
  const client = useQueryClient();
  const [state, setState] = useState({ restored: false, lastViewed: null as string | null });
  useEffect(() => {
    let live = true;
    // A last view that cannot be read opens the default: never an error.
    const last = readLastViewed(owner).catch(() => null);
    void Promise.all([startReportCache(client, owner), last]).then(
      ([, lastViewed]) => live && setState({ restored: true, lastViewed }),
    );
    return () => {
      live = false;
    };
  }, [client, owner]);
  return state;
}

/**
 * Remembers `search` as the owner's last viewed report once `shown` (a report is on screen for
 * it: a choice that only drew an error is not worth reopening on): on the tablet, and through
 * `onRemembered` for this visit (the navigation's Reports link followed while the screen is open
 * reopens on it).
 */
export function useRememberLastViewed(
  owner: string,
  search: string,
  shown: boolean,
  onRemembered: (search: string) => void,
) {
  useEffect(() => {
    if (!shown) return;
    onRemembered(search);
    void writeLastViewed(owner, search).catch(() => undefined);
  }, [owner, search, shown, onRemembered]);
}

/**
 * One report, through TanStack Query. A result stays on screen while a newer one loads and when
 * the network is gone (the cached one, with when it was computed). Retried once, only for a
 * server error: offline, a bad parameter or a lost session would give the same answer again.
 */
export function useReport(owner: string, kind: ReportKind, query: string, restored: boolean) {
  return useQuery<ReportResult, ReportError>({
    queryKey: reportQueries.one(owner, kind, query),
    queryFn: ({ signal }) => fetchReport(kind, query, signal),
    enabled: restored,
    // Reports change when anyone in the agency saves: a minute-old one is refetched on open.
    staleTime: 60_000,
    retry: (count, error) => error.reason === 'server' && count < 1,
    // offlineFirst: with no network the request is still tried once, and fails as "offline"
    // at once instead of waiting paused; the cached result stays.
    networkMode: 'always',
    // Back from no connection (lib/connection), the report is asked for again however fresh the
    // copy on screen: the screen says "offline" until an answer replaces it.
    refetchOnReconnect: 'always',
  });
}
