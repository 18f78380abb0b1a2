import { createConnectionState, type ConnectionState } from './connection-state';

/** The probe's own limit: a held request must not keep the app believing it is offline longer. */
const PROBE_TIMEOUT_MS = 10_000;

const browserOffline = () => typeof navigator !== 'undefined' && navigator.onLine === false;

/** In a page served over HTTP(S), where '/api/health' names the BFF; not in Node (benches). */
const inBrowserPage = () =>
  typeof window !== 'undefined' &&
  typeof location !== 'undefined' &&
  /^https?:$/.test(location.protocol);

/**
 * GET /api/health: the BFF's liveness, no session or X-CSRF needed, a few bytes each way, and
 * its upstream check is cached on the server. Any HTTP answer proves the network.
 */
async function probeHealth(): Promise<void> {
  const done = connection.track();
  try {
    const res = await fetch('/api/health', {
      cache: 'no-store',
      credentials: 'same-origin',
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    });
    await res.arrayBuffer();
    done(outcomeOf(res.status));
  } catch {
    done('unanswered');
  }
}

/**
 * An HTTP status as a connection outcome. 511 (Network Authentication Required) comes from a
 * captive portal in front of the network, not from the server: no connection yet.
 */
export function outcomeOf(status: number) {
  return status === 511 ? 'unanswered' : 'answered';
}

/**
 * The app's one connection state (see connection-state.ts): every screen that says online or
 * offline, and the sync engine, read this; lib/http reports every request's outcome to it.
 */
export const connection: ConnectionState = createConnectionState({
  browserOffline,
  probe: inBrowserPage() ? probeHealth : undefined,
});

if (typeof window !== 'undefined') {
  window.addEventListener('offline', () => connection.browserWentOffline());
  // Proof of nothing by itself: a probe finds out at once.
  window.addEventListener('online', () => connection.probeNow());
}
if (typeof document !== 'undefined') {
  // The tablet woken or the app brought back: a network may have come meanwhile.
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') connection.probeNow();
  });
}
