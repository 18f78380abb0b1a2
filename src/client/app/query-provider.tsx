import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { onSignedInAgain } from '../lib/identity';
import { makeQueryClient } from '../lib/query-client';

/**
 * The app's one QueryClient, made on the first screen that reads through TanStack Query (today
 * the Reports screen) and kept for the page's life, so its cache outlives leaving that screen.
 * It lives here, loaded with those screens, not at the root: the query library then stays out of
 * the JavaScript the first screen waits for.
 */
const queryClient = makeQueryClient();

/** Refused for want of a sign-in (the screen says so): asked again once signed in again. */
const refetchRefused = () =>
  void queryClient
    .refetchQueries({ type: 'active', predicate: (q) => q.state.status === 'error' })
    .catch(() => undefined);

export function QueryProvider({ children }: { children: ReactNode }) {
  useEffect(() => onSignedInAgain(refetchRefused), []);
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
