import type { ReactNode } from 'react';
import { Link, useRoute } from 'wouter';
import { SyncStatusBar } from '../features/sync-status';
import { ScreenErrorBoundary } from './error-boundaries';

function NavLink({ href, children }: { href: string; children: ReactNode }) {
  const [active] = useRoute(href === '/' ? '/' : `${href}/*?`);
  return (
    <Link
      href={href}
      className={active ? 'nav-link active' : 'nav-link'}
      aria-current={active ? 'page' : undefined}
    >
      {children}
    </Link>
  );
}

/** Header with the sync status (always visible), the main navigation and the screen. */
export function Layout({
  banner,
  onSignIn,
  signInNeeded,
  children,
}: {
  banner?: ReactNode;
  /** Opens the sign-in sheet from the sync bar. */
  onSignIn?: () => void;
  signInNeeded?: boolean;
  children: ReactNode;
}) {
  return (
    <div className="app">
      <header className="app-header">
        <span className="brand">Trapline</span>
        <SyncStatusBar onSignIn={onSignIn} signInNeeded={signInNeeded} />
      </header>
      {banner}
      <main className="app-main">
        <ScreenErrorBoundary>{children}</ScreenErrorBoundary>
      </main>
      <nav className="app-nav" aria-label="Main">
        <NavLink href="/">Home</NavLink>
        <NavLink href="/sites">Sites</NavLink>
        <NavLink href="/collections/new">New collection</NavLink>
        <NavLink href="/sync">Sync</NavLink>
        <NavLink href="/reports">Reports</NavLink>
        <NavLink href="/settings">Settings</NavLink>
      </nav>
    </div>
  );
}
