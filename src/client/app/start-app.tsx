import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { discardSignInShell, signInShellShown } from '../lib/prerendered-sign-in';
import { App } from './app';
import { AppErrorBoundary } from './error-boundaries';

/**
 * Renders the app into `container`, the entry's last stage (main.tsx). index.html holds the
 * sign-in screen, already painted for a fresh tablet (lib/prerendered-sign-in): React takes it
 * over as it is, what was typed included. Any other tablet renders afresh.
 *
 * Both at React's own priority, not in a transition: a hydration in slices stays open for as
 * long as they take, and an update reaching the root before it is hydrated makes React drop the
 * prerendered screen and render it afresh, emptying what was typed (branch w9-tbt, reverted).
 */
export function startApp(container: HTMLElement): void {
  const app = (
    <StrictMode>
      <AppErrorBoundary>
        <App />
      </AppErrorBoundary>
    </StrictMode>
  );
  if (signInShellShown(container)) hydrateRoot(container, app);
  else {
    discardSignInShell(container);
    createRoot(container).render(app);
  }
}
