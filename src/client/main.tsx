import { warmIntl } from './lib/i18n/warm-intl';
import { nextTask } from './lib/next-task';
import { watchRefusedSources } from './lib/refused-sources';
import { watchPreloadErrors } from './ui/error-boundary/chunk-recovery';
import './app/styles.css';

// Before anything draws: a tile server the page's security policy refuses is told apart from no signal.
watchRefusedSources();

// A lazy chunk that fails to load (offline, or gone after a new version) reloads the page once.
watchPreloadErrors();

/**
 * The app's scripts are evaluated in several tasks, not one, with the page free between them
 * (the prerendered sign-in form is already on screen, and a tap on it waits for any task): a
 * browser evaluates a module and everything it imports statically in a single task, and the
 * whole graph was one task of ~130–440 ms on a mid-range tablet (4x CPU; issue 40). Heaviest
 * first, each stage alone: React DOM; zod with the session's schemas (not `import('zod')`:
 * a namespace import keeps all of zod, 366 KB); Intl's locale tables (lib/i18n/warm-intl); then
 * the app. index.html preloads every stage's files (vite.config.ts, `preloadSignIn`), so the stages
 * cost no round trip. (The records' schemas wait for sign-in: app.tsx.)
 */
async function start(): Promise<void> {
  await import('react-dom/client');
  await nextTask();
  await import('#shared/schemas/auth');
  await nextTask();
  await warmIntl(nextTask);
  const { startApp } = await import('./app/start-app');
  await startApp(document.getElementById('root')!);
}

void start();
