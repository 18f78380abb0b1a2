import { useCallback, useContext, type ReactNode } from 'react';
import { useLocation } from 'wouter';
import { databaseName } from '../db/database-name';
import { DbContext } from '../db/db-context';
import { loadIdentity, ownerOf } from '../lib/identity';
import { ErrorBoundary } from '../ui/error-boundary/error-boundary';
import { readUnsentCount } from './read-unsent-count';

/**
 * Around the routed screen: a screen that fails leaves the header (sync status), the banners and
 * the navigation usable; navigating elsewhere shows screens again.
 */
export function ScreenErrorBoundary({ children }: { children: ReactNode }) {
  const db = useContext(DbContext);
  const [location, navigate] = useLocation();
  const countUnsent = useCallback(
    () => (db ? readUnsentCount(db.name) : Promise.resolve(null)),
    [db],
  );
  const goToStart = useCallback(() => navigate('/'), [navigate]);
  return (
    <ErrorBoundary
      where="screen"
      resetKey={location}
      countUnsent={countUnsent}
      onGoToStart={goToStart}
    >
      {children}
    </ErrorBoundary>
  );
}

/** The signed-in user's unsent count, from the remembered identity (no app state needed). */
const countRememberedUnsent = () => {
  const identity = loadIdentity();
  return identity ? readUnsentCount(databaseName(ownerOf(identity))) : Promise.resolve(null);
};

/** The app's frame, without anything that could have failed: for the app-wide notice. */
const appFrame = (notice: ReactNode) => (
  <div className="app">
    <header className="app-header">
      <span className="brand">Trapline</span>
    </header>
    <main className="app-main">{notice}</main>
  </div>
);

/** Around the whole app: whatever fails, never a blank page. */
export function AppErrorBoundary({ children }: { children: ReactNode }) {
  return (
    <ErrorBoundary where="app" countUnsent={countRememberedUnsent} frame={appFrame}>
      {children}
    </ErrorBoundary>
  );
}

/**
 * Around a part of a screen (a map, the sign-in sheet): the form or list around it, and what was
 * typed, stay; a small notice takes the part's place.
 */
export function PartErrorBoundary({ what, children }: { what: string; children: ReactNode }) {
  return (
    <ErrorBoundary where={what} part={what}>
      {children}
    </ErrorBoundary>
  );
}
