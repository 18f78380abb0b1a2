import { useQuery } from '@tanstack/react-query';
import { REPORT_KEY } from '../../lib/report-cache';
import { fetchReport, type ReportError, type ReportRow } from './fetch-report';

/** How many seasons back the screen looks for data, counting the current one. */
export const SEASONS_LOOKED_AT = 10;

/** The seasons with trap collections among those looked at (`from` to the current one). */
export type SeasonsFound = { years: number[]; from: number };

/**
 * An abundance report by month over the seasons looked at, all species together, is one row per
 * month that had trap events (spec: every group with TrapEvents > 0 is returned): its years are
 * the seasons with data. The smallest report the BFF makes, from the lists it reads anyway.
 */
export function seasonsQuery(season: number): string {
  const s = new URLSearchParams();
  for (let y = season - SEASONS_LOOKED_AT + 1; y <= season; y++) s.append('year', String(y));
  s.set('interval', 'Month');
  return s.toString();
}

export function seasonsWithData(rows: ReportRow[], from: number): SeasonsFound {
  const years = new Set<number>();
  for (const r of rows) if (typeof r.Year === 'number') years.add(r.Year);
  return { years: [...years].sort((a, b) => b - a), from };
}

/**
 * The seasons the pickers offer, newest first: those with data, and those chosen (a chosen
 * season stays visible, so it can be unticked). Until the seasons are known (first start
 * offline), the current season alone.
 */
export function offeredSeasons(
  found: SeasonsFound | undefined,
  chosen: number[],
  season: number,
): number[] {
  const all = new Set([...(found ? found.years : [season]), ...chosen]);
  return [...all].sort((a, b) => b - a);
}

/**
 * The seasons with data, through the report cache (its key starts with REPORT_KEY, so it is kept
 * for offline use; the kept-reports list shows only the four report kinds, not this).
 */
export function useSeasonsWithData(owner: string, season: number, enabled: boolean) {
  const query = seasonsQuery(season);
  return useQuery<{ rows: ReportRow[] }, ReportError, SeasonsFound>({
    queryKey: [REPORT_KEY, owner, 'seasons', query],
    queryFn: ({ signal }) => fetchReport('abundance', query, signal),
    select: (result) => seasonsWithData(result.rows, season - SEASONS_LOOKED_AT + 1),
    enabled,
    staleTime: 10 * 60_000,
    retry: (count, error) => error.reason === 'server' && count < 1,
    networkMode: 'always',
  });
}
