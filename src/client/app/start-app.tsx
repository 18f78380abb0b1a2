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
 * A fresh render runs in a transition: React renders the first screen in slices of a few
 * milliseconds with the page free between them, where its default priority did it in one task
 * (on Home, hundreds of milliseconds of a mid-range tablet's main thread, in which a tap waited;
 * Lighthouse's total blocking time, issue 40), and commits it whole.
 *
 * Hydration does not: a hydration in slices is open for as long as they take, and an update that
 * reaches the root before it is hydrated (the service worker ready, the connection heard from)
 * makes React drop the prerendered screen and render it afresh, which empties the fields a
 * technician has already typed into: two sign-ins in the whole suite, under load, never reached
 * Home. At its own priority the form is hydrated in the task that starts it.
 */
export function startApp(container: HTMLElement): void {
  const app = (
    <StrictMode>
      <AppErrorBoundary>
        <App />
      </AppErrorBoundary>
    </StrictMode>
  );
  if (signInShellShown(container)) {
    hydrateRoot(container, app);
    return;
  }
  discardSignInShell(container);
  const root = createRoot(container);
  startTransition(() => root.render(app));
}
