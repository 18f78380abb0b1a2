import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { defineMessages } from 'react-intl';
import type { SessionInfo } from '#shared';
import { openUserDb } from '../db/database';
import { DbContext } from '../db/db-context';
import { refreshLookups } from '../db/refresh-lookups';
import { removeTabletData } from '../features/auth/remove-tablet-data';
import { SyncEngineProvider } from '../features/sync-status';
import { fetchConfig } from '../lib/app-config';
import { useI18n } from '../lib/i18n';
import { connection } from '../lib/connection';
import { actFor, onAuthRequired, ownerHeaders } from '../lib/http';
import {
  announceSignedInAgain,
  onSignedInElsewhere,
  ownerOf,
  saveIdentity,
  signedInHere,
} from '../lib/identity';
import { createSyncEngine, type SyncEngine } from '../sync';
import { PartErrorBoundary } from './error-boundaries';
import { Layout } from './layout';
import { useSiteIndexAfterPull } from './site-index-after-pull';
import { AppRoutes } from './routes';
import { StorageLostBanner, SupersededBanner, useSuperseded } from './superseded-banner';
import { UpdateBanner } from './update-banner';
import { createPhotoUploader } from '../sync/photo-uploads';
import { kickPhotosOnRecordSync } from '../sync/photo-kicks';

// Mounted only when the server asks for the password again: its own chunk with the form library.
const SignInSheet = lazy(() =>
  import('../features/auth/sign-in-sheet').then((m) => ({ default: m.SignInSheet })),
);

/** How long Sign out waits for this user's data to be removed before it signs out anyway. */
const REMOVE_WAIT_MS = 10_000;

/** What Settings says after "Refresh lookups", by refreshLookups' outcome. */
const REFRESH_WORDS = defineMessages({
  updated: { id: 'lookups.refreshUpdated', defaultMessage: 'Lookups updated' },
  unchanged: { id: 'lookups.refreshUnchanged', defaultMessage: 'Lookups are up to date' },
  failed: {
    id: 'lookups.refreshFailed',
    defaultMessage: 'Could not refresh: using the saved lookups',
  },
});

/**
 * Everything behind sign-in: the user's own database, their sync engine, lookups kept fresh, and
 * the sign-in sheet that opens over the current screen when the server asks for the password.
 */
export function SignedInApp({
  identity,
  onIdentity,
  onSignOut,
}: {
  identity: SessionInfo;
  onIdentity: (s: SessionInfo) => void;
  onSignOut: () => void;
}) {
  const owner = ownerOf(identity);
  const { agencyId, username } = owner;
  const intl = useI18n();
  const db = useMemo(() => openUserDb({ agencyId, username }), [agencyId, username]);
  const [engine, setEngine] = useState<SyncEngine | null>(null);
  const [sheetOpen, setSheetOpen] = useState(false);
  /** The server asked for the password and it has not been given yet ("Later" keeps this). */
  const [signInNeeded, setSignInNeeded] = useState(false);

  // Every request of this page names its user (lib/http), and what reads the signed-in user reads
  // this page's, whoever another tab signs in (lib/identity): before any screen, as the screens
  // mount only once the engine is set, below.
  useEffect(() => actFor({ agencyId, username }), [agencyId, username]);
  useEffect(() => signedInHere(identity), [identity]);

  // The photo queue, beside the records' outbox and never in its way (sync/photo-uploads).
  useEffect(() => {
    const photos = createPhotoUploader(db, {
      headers: () => ({ 'X-CSRF': '1', ...ownerHeaders() }),
    });
    photos.start();
    const unsubscribe = engine ? kickPhotosOnRecordSync(engine, photos) : undefined;
    return () => {
      unsubscribe?.();
      photos.stop();
    };
  }, [db, engine]);

  useEffect(() => {
    // Created in the effect so that a remount (StrictMode, user switch) never shares a stopped engine.
    const next = createSyncEngine(db, { owner: { agencyId, username } });
    next.start();
    setEngine(next);
    return () => {
      next.stop();
      setEngine(null);
    };
  }, [db, agencyId, username]);
  useSiteIndexAfterPull(engine, db.name);
  /** Set once this user's data was removed from the tablet: their database stays closed for good. */
  const removed = useRef(false);
  useEffect(
    () => () => {
      if (!removed.current) db.close({ disableAutoOpen: false });
    },
    [db],
  );
  // A newer app upgraded the database in another tab: this tab stops sending (its database is
  // closed) and asks for a reload; the reloaded app drains the queue.
  const superseded = useSuperseded(db);
  useEffect(() => {
    if (superseded) engine?.stop();
  }, [superseded, engine]);

  useEffect(() => {
    // Lookups and map config on start and whenever the connection comes back (lib/connection:
    // a request got an answer, with or without an `online` event); offline, the cache serves.
    const refresh = () => {
      void refreshLookups(db);
      void fetchConfig();
    };
    refresh();
    return connection.subscribe(() => {
      if (connection.online) refresh();
    });
  }, [db]);

  useEffect(
    () =>
      onAuthRequired(() => {
        setSignInNeeded(true);
        setSheetOpen(true);
      }),
    [],
  );
  const openSheet = useCallback(() => setSheetOpen(true), []);

  // Signed in again in another tab (the browser's one session cookie serves every tab): this tab
  // syncs again (its engine hears the other's), so its sheet and "Sign in again" must go too.
  useEffect(() => {
    if (!engine) return;
    return onSignedInElsewhere({ agencyId, username }, () => {
      setSignInNeeded(false);
      setSheetOpen(false);
      engine.resume();
    });
  }, [engine, agencyId, username]);

  const signedInAgain = useCallback(
    (session: SessionInfo) => {
      saveIdentity(session);
      onIdentity(session);
      setSheetOpen(false);
      setSignInNeeded(false);
      engine?.resume();
      announceSignedInAgain();
      void refreshLookups(db);
    },
    [engine, db, onIdentity],
  );
  /**
   * Sign out; with `removeData`, this user's data is removed from the tablet first (Settings asks
   * only when nothing is unsent), while the screens that read it are still shown but no longer
   * syncing. A removal that has not finished in REMOVE_WAIT_MS goes on after the sign-out.
   */
  const signOut = useCallback(
    async ({ removeData = false }: { removeData?: boolean } = {}) => {
      if (removeData) {
        removed.current = true;
        engine?.stop();
        const removal = removeTabletData(db, { agencyId, username }).catch((err: unknown) => {
          console.error('Removing this tablet’s data failed', err);
        });
        await Promise.race([removal, new Promise((r) => setTimeout(r, REMOVE_WAIT_MS))]);
      }
      onSignOut();
    },
    [engine, db, agencyId, username, onSignOut],
  );
  const refreshNow = useCallback(
    async () => intl.formatMessage(REFRESH_WORDS[await refreshLookups(db)]),
    [db, intl],
  );
  if (!engine) return null;

  return (
    <DbContext.Provider value={db}>
      <SyncEngineProvider engine={engine}>
        <Layout
          banner={
            !superseded ? (
              <UpdateBanner />
            ) : db.storageLost ? (
              <StorageLostBanner />
            ) : (
              <SupersededBanner />
            )
          }
          onSignIn={openSheet}
          signInNeeded={signInNeeded}
          isManager={identity.user.role === 'manager'}
        >
          <AppRoutes
            userName={identity.user.name ?? identity.user.username}
            username={identity.user.username}
            userId={identity.user.id}
            isManager={identity.user.role === 'manager'}
            agencyId={identity.agency.id}
            agencyName={identity.agency.name}
            onSignOut={(options) => void signOut(options)}
            onRefreshLookups={refreshNow}
          />
        </Layout>
        {sheetOpen && (
          <PartErrorBoundary what="sign-in form">
            <Suspense fallback={null}>
              <SignInSheet
                open
                username={identity.user.username}
                onSignedIn={signedInAgain}
                onLater={() => setSheetOpen(false)}
              />
            </Suspense>
          </PartErrorBoundary>
        )}
      </SyncEngineProvider>
    </DbContext.Provider>
  );
}
