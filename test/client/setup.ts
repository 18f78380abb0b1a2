import 'fake-indexeddb/auto';
import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, onTestFinished, vi } from 'vitest';
import { connection } from '../../src/client/lib/connection';

// findBy* and waitFor wait up to 5 s, not 1: a wait for what a user will see, on a loaded
// machine (no test waits for something to stay absent with them).
configure({ asyncUtilTimeout: 5_000 });

// Vitest runs without globals, so Testing Library cannot register its own cleanup.
afterEach(() => {
  cleanup();
});

// One connection state per page, and the test files share their worker's modules: a test that
// failed requests on purpose must not leave the next one offline, nor probes running.
// Reset after the test's own onTestFinished hooks, not in afterEach: Vitest runs a test's
// afterEach hooks first, and setupEngine stops its engine in onTestFinished. Reset before, an
// engine still sending sent its next change to the real fetch after it, and the next test started
// offline (engine-between-tests; CI failed so on sync-status-bar). Registered here, before any
// the test registers, this hook runs after them (they run last registered, first). The screens
// are gone by then (afterEach above), so none sends a request on the reset's news.
// The globals are put back first (the project's unstubGlobals would do it only before the next
// test): reset against a navigator still stubbed offline would leave the state thinking its
// listeners were told "offline", and the next test's going offline would then be no news to them
// (connection-between-tests).
// The page's storage goes too, as for a page opened afresh: what one test stored (an identity, a
// language, map areas) must not decide what the next file's screens show.
beforeEach(() => {
  onTestFinished(() => {
    vi.unstubAllGlobals();
    // jsdom's (the client-node project runs in Node, with no page storage).
    if (typeof window !== 'undefined') {
      window.localStorage.clear();
      window.sessionStorage.clear();
    }
    connection.reset();
  });
});
