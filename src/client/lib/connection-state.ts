/**
 * Whether this tablet can reach the server, as the app itself has seen it. The browser is
 * believed only when it says offline (`navigator.onLine === false`): "online" means a network
 * interface is up, and on a truck's hotspot or a depot Wi-Fi with nothing behind it (lie-fi)
 * every request hangs or fails while the browser says so. The rules:
 *
 * 1. At start, connected unless the browser says offline: nothing has been tried yet, and the
 *    app's first requests (the sync engine's pull, lookups) decide within seconds.
 * 2. A request that got no answer (failed, or timed out) means no connection, unless some other
 *    request got an answer after it was sent: its failure is older news than that answer.
 * 3. Any answer from the server means connected: a 500 or a 401 came over a working network.
 * 4. The browser's `offline` means no connection. Its `online` proves nothing: the state waits
 *    for an answer, and a probe is sent at once to get one.
 * 5. While not connected, a probe is sent now and then (backing off to PROBE_CAP_MS), so the app
 *    notices the network coming back with no `online` event and no request of its own.
 */
export type ConnectionState = {
  /** Connected as far as the app knows (see the rules above). */
  readonly online: boolean;
  /** Called after every change of `online`. Returns the undo. */
  subscribe(listener: () => void): () => void;
  /** Call as a request is sent; call what it returns once it ends, with how it ended. */
  track(): (outcome: RequestOutcome) => void;
  /** The browser's `offline` event. */
  browserWentOffline(): void;
  /** The browser's `online` event, or the app shown again: while not connected, probe now. */
  probeNow(): void;
  /** Back to the start (rule 1): outcomes forgotten, probes stopped. */
  reset(): void;
};

/** `answered`: an HTTP answer came back whole. `unanswered`: it failed or timed out. */
export type RequestOutcome = 'answered' | 'unanswered';

export type ConnectionOptions = {
  /** Whether the browser says it is offline (`navigator.onLine === false`), read when asked. */
  browserOffline: () => boolean;
  /**
   * Sends one cheap request (GET /api/health) that reports its outcome through `track`, and
   * resolves when it has ended either way. Absent: no probes (outside a browser).
   */
  probe?: () => Promise<void>;
  /** First wait before a probe once not connected, doubled per probe up to `probeCapMs`. */
  probeFirstMs?: number;
  probeCapMs?: number;
  /** In [0, 1): spreads the probes of a fleet of tablets whose network came back together. */
  random?: () => number;
};

export const PROBE_FIRST_MS = 5_000;
export const PROBE_CAP_MS = 30_000;

export function createConnectionState(options: ConnectionOptions): ConnectionState {
  const firstMs = options.probeFirstMs ?? PROBE_FIRST_MS;
  const capMs = options.probeCapMs ?? PROBE_CAP_MS;
  const random = options.random ?? Math.random;
  const listeners = new Set<() => void>();
  /** No request has got an answer since one failed, or since the browser said offline. */
  let unreachable = false;
  /** Answers seen so far: a failure counts only if none came while it was under way (rule 2). */
  let answers = 0;
  let probesSent = 0;
  let probeTimer: ReturnType<typeof setTimeout> | null = null;
  let probing = false;
  /** Bumped by reset: a request or probe sent before it is no news of the state after it. */
  let generation = 0;
  let last = computeOnline();

  function computeOnline() {
    return !unreachable && !options.browserOffline();
  }

  function changed() {
    const now = computeOnline();
    if (now === last) return;
    last = now;
    for (const listener of listeners) listener();
  }

  function cancelProbe() {
    if (probeTimer !== null) clearTimeout(probeTimer);
    probeTimer = null;
  }

  // Full jitter over the upper half: never sooner than half the wait, never later than it.
  function probeDelay() {
    const wait = Math.min(capMs, firstMs * 2 ** probesSent);
    return wait / 2 + (wait / 2) * random();
  }

  function scheduleProbe() {
    // The browser saying offline is reliable: its `online` event (probeNow) ends the wait.
    if (!options.probe || !unreachable || probing || probeTimer !== null) return;
    if (options.browserOffline()) return;
    probeTimer = setTimeout(() => {
      probeTimer = null;
      sendProbe();
    }, probeDelay());
  }

  function sendProbe() {
    const probe = options.probe;
    if (!probe || probing) return;
    probing = true;
    probesSent += 1;
    const sentIn = generation;
    void probe()
      .catch(() => undefined)
      .finally(() => {
        if (sentIn !== generation) return;
        probing = false;
        scheduleProbe();
      });
  }

  return {
    get online() {
      // Read live: the browser may say offline before (or without) its event.
      return computeOnline();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    track() {
      const answersWhenSent = answers;
      const sentIn = generation;
      return (outcome) => {
        // Sent before a reset: news of a state that is gone.
        if (sentIn !== generation) return;
        if (outcome === 'answered') {
          answers += 1;
          unreachable = false;
          probesSent = 0;
          cancelProbe();
        } else if (answers === answersWhenSent) {
          unreachable = true;
          scheduleProbe();
        }
        changed();
      };
    },
    browserWentOffline() {
      unreachable = true;
      cancelProbe();
      changed();
    },
    probeNow() {
      if (!unreachable) return;
      cancelProbe();
      probesSent = 0;
      sendProbe();
      changed();
    },
    reset() {
      generation += 1;
      cancelProbe();
      probing = false;
      unreachable = false;
      probesSent = 0;
      changed();
    },
  };
}
