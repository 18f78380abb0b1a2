import { useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { Link, useRoute } from 'wouter';
import { SyncStatusBar } from '../features/sync-status';
import { useI18n } from '../lib/i18n';
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

/**
 * Whether the app bar may stay on screen while the screen scrolls: only while it takes at most a
 * third of the window's height. With large text on a phone, or a long sync state on a small one,
 * a sticky bar would cover most of the screen (and the buttons under it): it scrolls away instead.
 */
function useBarFits(bar: RefObject<HTMLElement | null>): boolean {
  const [fits, setFits] = useState(true);
  useEffect(() => {
    const el = bar.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const update = () => setFits(el.offsetHeight <= window.innerHeight / 3);
    const observer = new ResizeObserver(update);
    observer.observe(el);
    window.addEventListener('resize', update);
    update();
    return () => {
      observer.disconnect();
      window.removeEventListener('resize', update);
    };
  }, [bar]);
  return fits;
}

/** Header with the sync status (on screen while it fits), the main navigation and the screen. */
export function Layout({
  banner,
  onSignIn,
  signInNeeded,
  isManager = false,
  children,
}: {
  /** Managers see the Office in the navigation; a technician never does. */
  isManager?: boolean;
  banner?: ReactNode;
  /** Opens the sign-in sheet from the sync bar. */
  onSignIn?: () => void;
  signInNeeded?: boolean;
  children: ReactNode;
}) {
  const intl = useI18n();
  const bar = useRef<HTMLElement>(null);
  const barFits = useBarFits(bar);
  return (
    <div className="app">
      <header ref={bar} className={barFits ? 'app-header' : 'app-header app-header-static'}>
        <span className="brand">Trapline</span>
        <SyncStatusBar onSignIn={onSignIn} signInNeeded={signInNeeded} />
      </header>
      {banner}
      <main className="app-main">
        <ScreenErrorBoundary>{children}</ScreenErrorBoundary>
      </main>
      <nav
        className="app-nav"
        aria-label={intl.formatMessage({ id: 'nav.name', defaultMessage: 'Main' })}
      >
        <NavLink href="/">{intl.formatMessage({ id: 'nav.home', defaultMessage: 'Home' })}</NavLink>
        <NavLink href="/sites">
          {intl.formatMessage({ id: 'nav.sites', defaultMessage: 'Sites' })}
        </NavLink>
        <NavLink href="/collections/new">
          {intl.formatMessage({ id: 'nav.newCollection', defaultMessage: 'New collection' })}
        </NavLink>
        <NavLink href="/sync">
          {intl.formatMessage({ id: 'nav.sync', defaultMessage: 'Sync' })}
        </NavLink>
        <NavLink href="/reports">
          {intl.formatMessage({ id: 'nav.reports', defaultMessage: 'Reports' })}
        </NavLink>
        {isManager ? (
          <NavLink href="/office">
            {intl.formatMessage({ id: 'nav.office', defaultMessage: 'Office' })}
          </NavLink>
        ) : null}
        <NavLink href="/settings">
          {intl.formatMessage({ id: 'nav.settings', defaultMessage: 'Settings' })}
        </NavLink>
      </nav>
    </div>
  );
}
