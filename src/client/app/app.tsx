import { QueryClientProvider } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import type { SessionInfo } from '../../shared';
import { signOut } from '../features/auth/session-api';
import { SignInScreen } from '../features/auth/sign-in-screen';
import { clearIdentity, loadIdentity, saveIdentity } from '../lib/identity';
import { makeQueryClient } from '../lib/query-client';
import { SignedInApp } from './signed-in-app';

const PERSIST_ASKED = 'trapline.persistAsked';

/** At the first sign-in on a tablet, ask the browser to keep our storage (unsent work lives there). */
async function askPersistenceOnce(): Promise<void> {
  if (localStorage.getItem(PERSIST_ASKED)) return;
  localStorage.setItem(PERSIST_ASKED, String(Date.now()));
  await navigator.storage?.persist?.().catch(() => false);
}

/**
 * The app: opens straight into the last signed-in user's data, offline or not (the identity is
 * remembered, never a token); otherwise the sign-in screen.
 */
export function App() {
  const queryClient = useMemo(() => makeQueryClient(), []);
  const [identity, setIdentity] = useState<SessionInfo | null>(() => loadIdentity());
  const signedIn = useCallback((session: SessionInfo) => {
    saveIdentity(session);
    setIdentity(session);
    void askPersistenceOnce();
  }, []);
  const leave = useCallback(() => {
    void signOut();
    clearIdentity();
    setIdentity(null);
  }, []);
  return (
    <QueryClientProvider client={queryClient}>
      {identity ? (
        <SignedInApp
          key={`${identity.agency.id}:${identity.user.username}`}
          identity={identity}
          onIdentity={setIdentity}
          onSignOut={leave}
        />
      ) : (
        <SignInScreen onSignedIn={signedIn} />
      )}
    </QueryClientProvider>
  );
}
