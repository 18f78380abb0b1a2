import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { AppErrorBoundary } from './app/error-boundaries';
import { watchRefusedSources } from './lib/refused-sources';
import { watchPreloadErrors } from './ui/error-boundary/chunk-recovery';
import './app/styles.css';

// Before anything draws: a tile server the page's security policy refuses is told apart from no signal.
watchRefusedSources();

// A lazy chunk that fails to load (offline, or gone after a new version) reloads the page once.
watchPreloadErrors();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppErrorBoundary>
      <App />
    </AppErrorBoundary>
  </StrictMode>,
);
