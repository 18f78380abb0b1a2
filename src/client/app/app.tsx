import { useCallback, useState } from 'react';
import type { SessionInfo } from '#shared';
import { signOut } from '../features/auth/session-api';
import { clearIdentity, loadIdentity, saveIdentity } from '../lib/identity';
import { nextTask } from '../lib/next-task';
import { AppFrame } from './app-frame';
import { lazyChunk } from './lazy-chunk';

// Sign-in is its own chunk (with the form library): a returning technician opens straight into
// their data and never waits for it; the service worker precaches it for a first sign-in.
const SignInScreen = lazyChunk(() =>
  import('../features/auth/sign-in-screen').then((m) => m.SignInScreen),
);

/**
 * Resolves once the sign-in screen's code is here. A fresh tablet already shows that screen,
 * painted from index.html (lib/prerendered-sign-in), and start-app.tsx hydrates it only then:
 * React hydrating a screen whose code is still coming leaves it dehydrated inside AppFrame's
 * Suspense, and an update reaching it there makes React drop it for the fallback and draw an
 * empty form (under load, fresh-tablet sign-ins lost the typed username: branch w9-tbt). With its
 * code here, the screen is drawn from it at once (lazy-chunk.tsx).
 */
export function signInScreenLoaded(): Promise<unknown> {
  return SignInScreen.preload();
}

/**
 * Everything behind sign-in (the user's database, the sync engine, the photo queue, Home) is a
 * chunk of its own too: a first visit's sign-in screen on one bar of signal waited for ~90 KiB
 * of it (Dexie, tus, the engine) it could not use yet (Lighthouse, issue 40). A tablet with a
 * remembered identity starts fetching it here, as the page's scripts are evaluated, beside
 * React's first render, from the service worker's cache: a returning technician does not wait
 * on a round trip for it.
 */
const SignedInApp = lazyChunk(() =>
  // The records' schemas first, in a task of their own: zod builds each as its module is
  // evaluated, ~190 ms of a mid-range tablet's thread in one task (4x CPU). The sign-in screen
  // imports only the session's (#shared/schemas/auth), so a fresh tablet never waits on them.
  import('#shared')
    .then(nextTask)
    .then(() => import('./signed-in-app'))
    .then((m) => m.SignedInApp),
);
if (loadIdentity()) void SignedInApp.preload().catch(() => undefined);
/**
 * A fresh tablet fetches it as the username and password are sent, not once the session's answer
 * is in: the chunks come (and are evaluated) during that round trip instead of after it (a trace
 * of a first sign-in at 4x CPU: ~0.5 s after the answer before the signed-in app could render).
 * A refused sign-in has only fetched what the next try needs. A fetch that failed is forgotten:
 * the lazy screen imports afresh and reports its own failure.
 */
const loadSignedInAppEarly = () => void SignedInApp.preload().catch(() => undefined);

/** How long a start with a remembered identity waits for the signed-in app's code at most. */
const SIGNED_IN_WAIT_MS = 3_000;

/**
 * Resolves once the signed-in app's code is here when an identity is remembered (at once when
 * none is), or after SIGNED_IN_WAIT_MS: start-app.tsx renders then, and a returning technician's
 * Home is drawn straight from its code, not after "Loading…" and React's 300 ms wait behind it
 * (lazy-chunk.tsx). Code that cannot come, or comes slower, is the lazy screen's to wait for
 * (with "Loading…") or to report, as before.
 */
export function signedInAppReady(): Promise<unknown> {
  if (!loadIdentity()) return Promise.resolve();
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    SignedInApp.preload().catch(() => undefined),
    new Promise((resolve) => (timer = setTimeout(resolve, SIGNED_IN_WAIT_MS))),
  ]).finally(() => clearTimeout(timer));
}

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
  // The sign-in screen stays, saying it signs in, until the signed-in app's code is here (asked
  // for as the form was sent: `loadSignedInAppEarly`), and Home then replaces it directly, with
  // no "Loading…" between and no wait on React after it (lazy-chunk.tsx). Code that cannot come
  // is the lazy screen's to report, as before.
  const signedIn = useCallback(async (session: SessionInfo) => {
    saveIdentity(session);
    void askPersistenceOnce();
    await SignedInApp.preload().catch(() => undefined);
    setIdentity(session);
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
    <AppFrame owner={owner}>
      {identity ? (
        <SignedInApp key={key} identity={identity} onIdentity={setIdentity} onSignOut={leave} />
      ) : (
        <SignInScreen onSignedIn={signedIn} onSending={loadSignedInAppEarly} />
      )}
    </AppFrame>
  );
}
