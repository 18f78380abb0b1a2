import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { discardSignInShell, signInShellShown } from '../lib/prerendered-sign-in';
import { App, signedInAppReady, signInScreenLoaded } from './app';
import { AppErrorBoundary } from './error-boundaries';

/**
 * Renders the app into `container`, the entry's last stage (main.tsx). index.html holds the
 * sign-in screen, already painted for a fresh tablet (lib/prerendered-sign-in): React takes it
 * over as it is, what was typed included. Any other tablet renders afresh.
 *
 * Both at React's own priority, not in a transition: a hydration in slices stays open for as
 * long as they take, and an update reaching the root before it is hydrated makes React drop the
 * prerendered screen and render it afresh, emptying what was typed (branch w9-tbt, reverted).
 * Until hydrateRoot the page is index.html's own: typing and a tap on Sign in are kept
 * (lib/prerendered-sign-in).
 */
export async function startApp(container: HTMLElement): Promise<void> {
  const app = (
    <StrictMode>
      <AppErrorBoundary>
        <App />
      </AppErrorBoundary>
    </StrictMode>
  );
  if (signInShellShown(container)) {
    // The screen's code first (app.tsx, `signInScreenLoaded`): hydrated whole in one pass, the
    // prerendered form is never left waiting inside a Suspense boundary for an update to drop.
    // Code that cannot come is the lazy screen's to report (the error boundary: a reload, then
    // "This screen could not load"); the form is never left on screen with nothing behind it.
    await signInScreenLoaded().catch(() => undefined);
    hydrateRoot(container, app);
  } else {
    // A remembered technician: Home is drawn once its code is here (`signedInAppReady`, which
    // waits a few seconds at most), so it replaces the blank page directly. The page's own
    // markup stays hidden meanwhile, as it was.
    await signedInAppReady();
    discardSignInShell(container);
    createRoot(container).render(app);
  }
}
