import { describe, expect, it, vi } from 'vitest';
import { connection } from '../../../src/client/lib/connection';

// The test files of a worker share the app's one connection state (test/client/setup.ts resets
// it after each test). A test that stubs the browser offline must not leave the next one with a
// state that no longer tells its listeners it went offline: saved-map-note failed so in a full run,
// after a sync bar file whose last test had the browser say offline.
describe('the connection state from one test to the next', () => {
  // As the sync bar files do: the project's unstubGlobals puts the real navigator back.
  it('a test with the browser offline', () => {
    vi.stubGlobal('navigator', { ...navigator, onLine: false });
    expect(connection.online).toBe(false);
  });

  it('the next test is told when the app goes offline', () => {
    expect(navigator.onLine).toBe(true);
    expect(connection.online).toBe(true);
    const told: boolean[] = [];
    const off = connection.subscribe(() => told.push(connection.online));
    connection.browserWentOffline();
    off();
    expect(told).toEqual([false]);
  });
});
