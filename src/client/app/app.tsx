import { lazy, Suspense, useCallback, useState } from 'react';
import type { SessionInfo } from '#shared';
import { signOut } from '../features/auth/session-api';
import { I18nProvider, useI18n } from '../lib/i18n';
import { clearIdentity, loadIdentity, saveIdentity } from '../lib/identity';

// Sign-in is its own chunk (with the form library): a returning technician opens straight into
// their data and never waits for it; the service worker precaches it for a first sign-in.
const SignInScreen = lazy(() =>
  import('../features/auth/sign-in-screen').then((m) => ({ default: m.SignInScreen })),
);

// The signed-in app (the database, the sync engine, the shell and its routes) is its own chunk
// too: the sign-in page of a first visit loaded and ran it unused (Lighthouse: 80 KiB of unused
// JavaScript, most of the page's script time on a slow phone). Both chunks are asked for as the
// app's first render needs one, and the service worker precaches both.
const SignedInApp = lazy(() => import('./signed-in-app').then((m) => ({ default: m.SignedInApp })));

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
  const key = identity ? `${identity.agency.id}:${identity.user.username}` : undefined;
  // Usernames are matched without case (lib/identity): so is the language kept for one.
  const owner = identity ? `${identity.agency.id}:${identity.user.username.toLowerCase()}` : null;
  // The language is the signed-in user's choice (Settings), before sign-in the tablet's.
  return (
    <I18nProvider owner={owner}>
      <Suspense fallback={<Loading />}>
        {identity ? (
          <SignedInApp key={key} identity={identity} onIdentity={setIdentity} onSignOut={leave} />
        ) : (
          <SignInScreen onSignedIn={signedIn} />
        )}
      </Suspense>
    </I18nProvider>
  );
}

function Loading() {
  const intl = useI18n();
  return (
    <p className="screen">
      {intl.formatMessage({ id: 'app.loading', defaultMessage: 'Loading…' })}
    </p>
  );
}
