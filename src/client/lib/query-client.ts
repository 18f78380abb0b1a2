import { onlineManager, QueryClient } from '@tanstack/react-query';
import { connection } from './connection';

/**
 * Record reads come from Dexie (live queries); TanStack Query holds the few network reads
 * (session, config) and the reports, whose answers lib/report-cache keeps in IndexedDB per user
 * (started by the Reports screen, so the first screen never waits for it). Offline-first: never
 * retry forever, never refetch on focus.
 */
export function makeQueryClient(): QueryClient {
  // TanStack Query's "online" is the app's connection state, not the browser's events: a query
  // waiting for the network resumes, and reconnect refetches run, when a request gets an answer.
  onlineManager.setEventListener((setOnline) => {
    setOnline(connection.online);
    return connection.subscribe(() => setOnline(connection.online));
  });
  return new QueryClient({
    defaultOptions: {
      queries: {
        networkMode: 'offlineFirst',
        retry: 1,
        refetchOnWindowFocus: false,
        staleTime: 60_000,
      },
      mutations: { networkMode: 'always' },
    },
  });
}
