import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app/app';
import { AppErrorBoundary } from './app/error-boundaries';
import { discardSignInShell, signInShellShown } from './lib/prerendered-sign-in';
import { watchRefusedSources } from './lib/refused-sources';
import { watchPreloadErrors } from './ui/error-boundary/chunk-recovery';
import './app/styles.css';

// Before anything draws: a tile server the page's security policy refuses is told apart from no signal.
watchRefusedSources();

// A lazy chunk that fails to load (offline, or gone after a new version) reloads the page once.
watchPreloadErrors();

const container = document.getElementById('root')!;
const app = (
  <StrictMode>
    <AppErrorBoundary>
      <App />
    </AppErrorBoundary>
  </StrictMode>
);
// index.html holds the sign-in screen, already painted for a fresh tablet (lib/prerendered-sign-in):
// React takes it over as it is, what was typed included. Any other tablet renders afresh.
if (signInShellShown(container)) hydrateRoot(container, app);
else {
  discardSignInShell(container);
  createRoot(container).render(app);
}
