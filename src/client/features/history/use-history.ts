import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { HistoryEntity, HistoryList } from '#shared/schemas/history';
import { fetchHistory, type HistoryError } from './fetch-history';

/** Query keys of the history: one record's, or a page of the agency's changes since a date. */
export const historyQueries = {
  all: ['history'] as const,
  record: (entity: HistoryEntity, id: number, version: string | null) =>
    ['history', 'record', entity, id, version] as const,
  since: (since: string, page: number) => ['history', 'since', since, page] as const,
};

const common = {
  // The history changes whenever anyone saves the record: read again on every open.
  staleTime: 0,
  retry: (count: number, error: HistoryError) => error.reason === 'server' && count < 1,
  // Tried at once even when the app thinks it is offline: the panel says so from its answer.
  networkMode: 'always' as const,
};

/**
 * One record's history, oldest first; `id` null (not on the server yet) asks nothing. `version`
 * (the record's server `updated`) is in the key: a newer record is a new question.
 */
export function useRecordHistory(
  entity: HistoryEntity,
  id: number | null,
  version: string | null,
  enabled: boolean,
) {
  return useQuery<HistoryList, HistoryError>({
    queryKey: historyQueries.record(entity, id ?? 0, version),
    queryFn: ({ signal }) => fetchHistory(`entity=${entity}&id=${id}&pageSize=1000`, signal),
    enabled: enabled && id !== null,
    placeholderData: keepPreviousData,
    ...common,
  });
}

export const SINCE_PAGE_SIZE = 100;

/** A page of the agency's changes since `since` (a date), for managers. */
export function useChangesSince(since: string, page: number, enabled: boolean) {
  return useQuery<HistoryList, HistoryError>({
    queryKey: historyQueries.since(since, page),
    queryFn: ({ signal }) =>
      fetchHistory(
        `since=${encodeURIComponent(since)}&page=${page}&pageSize=${SINCE_PAGE_SIZE}`,
        signal,
      ),
    enabled,
    placeholderData: keepPreviousData,
    ...common,
  });
}
