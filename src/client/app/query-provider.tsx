import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { makeQueryClient } from '../lib/query-client';

/**
 * The app's one QueryClient, made on the first screen that reads through TanStack Query (today
 * the Reports screen) and kept for the page's life, so its cache outlives leaving that screen.
 * It lives here, loaded with those screens, not at the root: the query library then stays out of
 * the JavaScript the first screen waits for.
 */
const queryClient = makeQueryClient();

export function QueryProvider({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
