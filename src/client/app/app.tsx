import { lazy, Suspense, useCallback, useState } from 'react';
import type { SessionInfo } from '#shared';
import { signOut } from '../features/auth/session-api';
import { clearIdentity, loadIdentity, saveIdentity } from '../lib/identity';
import { SignedInApp } from './signed-in-app';

// Sign-in is its own chunk (with the form library): a returning technician opens straight into
// their data and never waits for it; the service worker precaches it for a first sign-in.
const SignInScreen = lazy(() =>
  import('../features/auth/sign-in-screen').then((m) => ({ default: m.SignInScreen })),
);

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
  const [identity, setIdentity] = useState<SessionInfo | null>(() => loadIdentity());
  const signedIn = useCallback((session: SessionInfo) => {
    saveIdentity(session);
    setIdentity(session);
    void askPersistenceOnce();
  }, []);
  const leave = useCallback(() => {
    void signOut();
    if (identity) clearIdentity(identity);
    setIdentity(null);
  }, [identity]);
  return identity ? (
    <SignedInApp
      key={`${identity.agency.id}:${identity.user.username}`}
      identity={identity}
      onIdentity={setIdentity}
      onSignOut={leave}
    />
  ) : (
    <Suspense fallback={<p className="screen">Loading…</p>}>
      <SignInScreen onSignedIn={signedIn} />
    </Suspense>
  );
}
