import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createConnectionState,
  type ConnectionState,
} from '../../../src/client/lib/connection-state';

/** A connection state whose browser says `onLine` as told and whose probes get the answer set. */
function makeConnection(options: { browserOffline?: boolean } = {}) {
  const browser = { offline: options.browserOffline ?? false };
  const probes = { sent: 0, answer: 'unanswered' as 'answered' | 'unanswered' };
  const state: ConnectionState = createConnectionState({
    browserOffline: () => browser.offline,
    probe: async () => {
      probes.sent += 1;
      const done = state.track();
      await Promise.resolve();
      done(probes.answer);
    },
    probeFirstMs: 5_000,
    probeCapMs: 30_000,
    // The longest wait: the tests below know when each probe is due.
    random: () => 1,
  });
  const changes: boolean[] = [];
  state.subscribe(() => changes.push(state.online));
  return { state, browser, probes, changes };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('connection state', () => {
  it('starts connected while the browser says online, offline when it says offline', () => {
    expect(makeConnection().state.online).toBe(true);
    expect(makeConnection({ browserOffline: true }).state.online).toBe(false);
  });

  it('says no connection once a request fails, though the browser still says online', () => {
    const { state, changes } = makeConnection();
    state.track()('unanswered');
    expect(state.online).toBe(false);
    expect(changes).toEqual([false]);
  });

  it('is connected again when a request gets an answer, with no online event', () => {
    const { state, changes } = makeConnection();
    state.track()('unanswered');
    state.track()('answered');
    expect(state.online).toBe(true);
    expect(changes).toEqual([false, true]);
  });

  it('takes no late failure of a request sent before an answer came as news', () => {
    const { state } = makeConnection();
    // Sent while the network was down; it times out after another request got through.
    const slow = state.track();
    state.track()('answered');
    slow('unanswered');
    expect(state.online).toBe(true);
    // A request sent after that answer still counts.
    state.track()('unanswered');
    expect(state.online).toBe(false);
  });

  it('believes the browser saying offline, but not its online event without an answer', async () => {
    const { state, browser, probes } = makeConnection();
    browser.offline = true;
    state.browserWentOffline();
    expect(state.online).toBe(false);
    // No probe while the browser says offline: it would fail at once.
    await vi.advanceTimersByTimeAsync(120_000);
    expect(probes.sent).toBe(0);

    browser.offline = false;
    state.probeNow();
    await vi.advanceTimersByTimeAsync(0);
    expect(probes.sent).toBe(1);
    expect(state.online).toBe(false);

    probes.answer = 'answered';
    state.probeNow();
    await vi.advanceTimersByTimeAsync(0);
    expect(state.online).toBe(true);
  });

  it('probes while offline, backing off to 30 s, and stops once a probe gets an answer', async () => {
    const { state, probes, changes } = makeConnection();
    state.track()('unanswered');
    const dueAt: number[] = [];
    const start = Date.now();
    for (let i = 0; i < 5; i += 1) {
      const sent = probes.sent;
      while (probes.sent === sent) await vi.advanceTimersByTimeAsync(1_000);
      dueAt.push(Math.round((Date.now() - start) / 1_000));
    }
    // 5 s, then 10, 20, 30, 30 s apart.
    expect(dueAt).toEqual([5, 15, 35, 65, 95]);
    expect(state.online).toBe(false);

    probes.answer = 'answered';
    await vi.advanceTimersByTimeAsync(30_000);
    expect(state.online).toBe(true);
    expect(changes).toEqual([false, true]);
    const sent = probes.sent;
    await vi.advanceTimersByTimeAsync(300_000);
    expect(probes.sent).toBe(sent);
  });

  it('starts the probes over from 5 s after the connection came back and went again', async () => {
    const { state, probes } = makeConnection();
    state.track()('unanswered');
    await vi.advanceTimersByTimeAsync(35_000);
    expect(probes.sent).toBe(3);
    state.track()('answered');
    state.track()('unanswered');
    await vi.advanceTimersByTimeAsync(4_999);
    expect(probes.sent).toBe(3);
    await vi.advanceTimersByTimeAsync(1);
    expect(probes.sent).toBe(4);
  });

  it('spreads probes between half the wait and the whole of it', async () => {
    const probe = vi.fn(() => Promise.resolve());
    const spread = createConnectionState({ browserOffline: () => false, probe, random: () => 0 });
    spread.track()('unanswered');
    await vi.advanceTimersByTimeAsync(2_499);
    expect(probe).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(probe).toHaveBeenCalledTimes(1);
    spread.reset();
  });

  it('forgets failures and stops probing on reset', async () => {
    const { state, probes } = makeConnection();
    state.track()('unanswered');
    state.reset();
    expect(state.online).toBe(true);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(probes.sent).toBe(0);
  });
});
