import { Suspense, type ReactNode } from 'react';
import { I18nProvider, useI18n } from '../lib/i18n';

/**
 * What every screen of the app sits in: the language of `owner` (agencyId:username, null before
 * sign-in: the tablet's) and the wait for a screen's chunk. One component for the app (app.tsx)
 * and for the sign-in screen rendered into index.html at build time (sign-in-prerender.tsx): the
 * markup React hydrates must be the markup it would render, wrapper for wrapper.
 */
export function AppFrame({ owner, children }: { owner: string | null; children: ReactNode }) {
  return (
    <I18nProvider owner={owner}>
      <Suspense fallback={<Loading />}>{children}</Suspense>
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
