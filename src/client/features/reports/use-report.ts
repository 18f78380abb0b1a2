import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { REPORT_KEY, startReportCache } from '../../lib/report-cache';
import type { ReportError } from './fetch-report';
import { fetchReport, type ReportResult } from './fetch-report';
import type { ReportKind } from './report-choice';

/** Query keys of reports: the owner first, so one user's cached reports never answer another's. */
export const reportQueries = {
  all: (owner: string) => [REPORT_KEY, owner] as const,
  one: (owner: string, kind: ReportKind, query: string) =>
    [REPORT_KEY, owner, kind, query] as const,
};

/** True once the owner's stored reports are back in the query cache (see lib/report-cache). */
export function useReportCacheRestored(owner: string): boolean {
  const client = useQueryClient();
  const [restored, setRestored] = useState(false);
  useEffect(() => {
    let live = true;
    void startReportCache(client, owner).then(() => live && setRestored(true));
    return () => {
      live = false;
    };
  }, [client, owner]);
  return restored;
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
