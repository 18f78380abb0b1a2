import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { discardSignInShell, signInShellShown } from '../lib/prerendered-sign-in';
import { App } from './app';
import { AppErrorBoundary } from './error-boundaries';

/**
 * Renders the app into `container`. index.html holds the sign-in screen, already painted for a
 * fresh tablet (lib/prerendered-sign-in): React takes it over as it is, what was typed included.
 * Any other tablet renders afresh.
 *
 * In a transition: React renders (or hydrates) the first screen in slices of a few milliseconds
 * with the page free between them, where its default priority did it in one task (on the
 * sign-in page and Home, hundreds of milliseconds of a mid-range tablet's main thread, in which
 * a tap waited; Lighthouse's total blocking time, issue 40). Nothing is shown in between: the
 * prerendered form stays as it was until hydrated, and a fresh render commits whole.
 */
export function startApp(container: HTMLElement): void {
  const app = (
    <StrictMode>
      <AppErrorBoundary>
        <App />
      </AppErrorBoundary>
    </StrictMode>
  );
  startTransition(() => {
    if (signInShellShown(container)) hydrateRoot(container, app);
    else {
      discardSignInShell(container);
      createRoot(container).render(app);
    }
  });
}
