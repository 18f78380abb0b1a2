import { render, screen, within } from '@testing-library/react';
import { lazy, Suspense } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createChunkRecovery,
  isChunkLoadError,
  RELOAD_GUARD_MS,
  watchPreloadErrors,
  type ChunkRecovery,
} from '../../../src/client/ui/error-boundary/chunk-recovery';
import { ErrorBoundary } from '../../../src/client/ui/error-boundary/error-boundary';

const T0 = 1_800_000_000_000;

/** A screen whose chunk cannot be fetched (offline, or gone after a new version was deployed). */
function unreachableScreen() {
  return lazy(() =>
    Promise.reject(
      new TypeError(
        'Failed to fetch dynamically imported module: http://127.0.0.1/assets/site-list-screen-Ab12.js',
      ),
    ),
  );
}

/** One page load of the app: its start time, its clock and its reload. */
function pageLoad(startedAt: number, now = startedAt + 2_000) {
  const reload = vi.fn();
  const recovery = createChunkRecovery({
    storage: sessionStorage,
    pageStartedAt: () => startedAt,
    now: () => now,
    reload,
    formDirty: () => false,
  });
  return { reload, recovery };
}

function renderScreen(recovery: ChunkRecovery) {
  const Screen = unreachableScreen();
  return render(
    <ErrorBoundary recovery={recovery} countUnsent={async () => 2}>
      <Suspense fallback={<p>Loading…</p>}>
        <Screen />
      </Suspense>
    </ErrorBoundary>,
  );
}

beforeEach(() => {
  sessionStorage.clear();
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterEach(() => {
  vi.restoreAllMocks();
  sessionStorage.clear();
});

describe('a screen chunk that fails to load', () => {
  it('reloads the page once, then shows the boundary when it fails again after the reload', async () => {
    const first = pageLoad(T0);
    const { unmount } = renderScreen(first.recovery);
    await screen.findByText('Loading the latest version of the app…');
    expect(first.reload).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    unmount();

    // The reloaded page: the same chunk fails again within the guard's time.
    const second = pageLoad(T0 + 5_000);
    renderScreen(second.recovery);
    const alert = await screen.findByRole('alert');
    expect(
      within(alert).getByRole('heading', { name: 'This screen could not load' }),
    ).toHaveFocus();
    expect(alert).toHaveTextContent('offline');
    expect(alert).toHaveTextContent('reload when you are back in signal');
    expect(alert).toHaveTextContent('What is saved on this tablet is safe.');
    await within(alert).findByText(/2 unsent changes are kept on this tablet/);
    expect(within(alert).getByRole('button', { name: 'Reload' })).toBeInTheDocument();
    expect(second.reload).not.toHaveBeenCalled();
  });

  it('reloads by itself again once the guard has expired', () => {
    const first = pageLoad(T0);
    expect(first.recovery.recover(new TypeError('Importing a module script failed.'))).toBe(
      'reloading',
    );
    const soon = pageLoad(T0 + 3_000);
    expect(soon.recovery.recover(new TypeError('Importing a module script failed.'))).toBe(
      'gave-up',
    );
    const later = pageLoad(T0 + RELOAD_GUARD_MS + 10_000);
    expect(later.recovery.recover(new TypeError('Importing a module script failed.'))).toBe(
      'reloading',
    );
    expect(later.reload).toHaveBeenCalledTimes(1);
  });

  it('never reloads over a form holding unsaved typing', () => {
    const reload = vi.fn();
    const recovery = createChunkRecovery({
      storage: sessionStorage,
      pageStartedAt: () => T0,
      now: () => T0 + 1_000,
      reload,
      formDirty: () => true,
    });
    expect(recovery.recover(new TypeError('Failed to fetch dynamically imported module: x'))).toBe(
      'gave-up',
    );
    expect(reload).not.toHaveBeenCalled();
  });

  it('gives up (never loops) when session storage cannot hold the flag', () => {
    const reload = vi.fn();
    const broken = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    const recovery = createChunkRecovery({
      storage: broken,
      pageStartedAt: () => T0,
      now: () => T0 + 1_000,
      reload,
      formDirty: () => false,
    });
    expect(recovery.recover(new TypeError('Failed to fetch dynamically imported module: x'))).toBe(
      'gave-up',
    );
    expect(reload).not.toHaveBeenCalled();
  });

  it('handles vite:preloadError the same way: one reload, and the boundary then waits for it', async () => {
    const first = pageLoad(T0);
    const stop = watchPreloadErrors(first.recovery);
    const event = Object.assign(new Event('vite:preloadError', { cancelable: true }), {
      payload: new Error('Unable to preload CSS for /assets/reports-Xy.css'),
    });
    window.dispatchEvent(event);
    window.dispatchEvent(event);
    stop();
    expect(first.reload).toHaveBeenCalledTimes(1);
    // With its cause, which the app's reload says in the console (the file that did not come).
    expect(first.reload).toHaveBeenCalledWith(event.payload);

    // The failed import still reaches the boundary: it shows the reload under way, not an error.
    renderScreen(first.recovery);
    await screen.findByText('Loading the latest version of the app…');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(first.reload).toHaveBeenCalledTimes(1);
  });

  it('tells chunk load failures from other errors', () => {
    for (const message of [
      'Failed to fetch dynamically imported module: http://x/assets/a.js',
      'Importing a module script failed.',
      'error loading dynamically imported module: http://x/assets/a.js',
      'Unable to preload CSS for /assets/a.css',
    ])
      expect(isChunkLoadError(new TypeError(message)), message).toBe(true);
    expect(
      isChunkLoadError(
        Object.assign(new Error('Loading chunk 7 failed'), { name: 'ChunkLoadError' }),
      ),
    ).toBe(true);
    expect(isChunkLoadError(new TypeError('Cannot read properties of undefined'))).toBe(false);
    expect(isChunkLoadError('Failed to fetch dynamically imported module')).toBe(false);
  });

  it('shows other errors at once, without reloading', async () => {
    const { reload, recovery } = pageLoad(T0);
    function Broken(): never {
      throw new Error('boom');
    }
    render(
      <ErrorBoundary recovery={recovery}>
        <Broken />
      </ErrorBoundary>,
    );
    const alert = await screen.findByRole('alert');
    expect(
      within(alert).getByRole('heading', { name: 'Something went wrong showing this screen' }),
    ).toBeInTheDocument();
    expect(reload).not.toHaveBeenCalled();
  });
});
