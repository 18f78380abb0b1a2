import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  SETTLED_IDLE_WAIT_MS,
  SETTLED_LOAD_WAIT_MS,
  whenPageSettled,
} from '../../../src/client/lib/when-idle';

/** The page's idle callbacks, held until the test says the page is idle; jsdom has none. */
function idleByHand() {
  const waiting = new Map<number, { callback: IdleRequestCallback; timeout?: number }>();
  let next = 1;
  vi.stubGlobal(
    'requestIdleCallback',
    (callback: IdleRequestCallback, options?: IdleRequestOptions) => {
      waiting.set(next, { callback, timeout: options?.timeout });
      return next++;
    },
  );
  vi.stubGlobal('cancelIdleCallback', (id: number) => waiting.delete(id));
  return {
    get timeouts() {
      return [...waiting.values()].map((w) => w.timeout);
    },
    run() {
      const all = [...waiting.values()];
      waiting.clear();
      for (const w of all) w.callback({ didTimeout: false, timeRemaining: () => 50 });
    },
  };
}

/** The document as it is before its `load` event (jsdom's test document has long loaded). */
function stillLoading() {
  Object.defineProperty(document, 'readyState', { value: 'loading', configurable: true });
  return () => {
    Object.defineProperty(document, 'readyState', { value: 'complete', configurable: true });
    window.dispatchEvent(new Event('load'));
  };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  // Back to jsdom's own getter.
  delete (document as { readyState?: unknown }).readyState;
});

/**
 * The start's sync and lookups refresh wait for the page to settle (issue 40), but never for
 * ever: a page never idle, a browser without idle callbacks and a page whose load never comes
 * all get there, each within a bound.
 */
describe('whenPageSettled', () => {
  it('waits for the load, then for an idle period, asked with a bound', () => {
    const idle = idleByHand();
    const load = stillLoading();
    const work = vi.fn();
    whenPageSettled(work);
    expect(idle.timeouts).toEqual([]);

    load();
    expect(work).not.toHaveBeenCalled();
    expect(idle.timeouts).toEqual([SETTLED_IDLE_WAIT_MS]);
    // Loaded: the load's own bound no longer applies, the idle callback's timeout does.
    vi.advanceTimersByTime(SETTLED_LOAD_WAIT_MS * 2);
    expect(work).not.toHaveBeenCalled();

    idle.run();
    expect(work).toHaveBeenCalledTimes(1);
  });

  it('runs once the load has waited its bound, when the load never comes', () => {
    const idle = idleByHand();
    stillLoading();
    const work = vi.fn();
    whenPageSettled(work);
    vi.advanceTimersByTime(SETTLED_LOAD_WAIT_MS - 1);
    expect(work).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(work).toHaveBeenCalledTimes(1);

    // A load that comes after all runs it no second time.
    window.dispatchEvent(new Event('load'));
    idle.run();
    expect(work).toHaveBeenCalledTimes(1);
  });

  it('runs right after the load where there are no idle callbacks (Safari)', () => {
    const load = stillLoading();
    const work = vi.fn();
    whenPageSettled(work);
    expect(work).not.toHaveBeenCalled();
    load();
    expect(work).toHaveBeenCalledTimes(1);
  });

  it('runs nothing once cancelled, whatever comes after', () => {
    const idle = idleByHand();
    const load = stillLoading();
    const work = vi.fn();
    const cancel = whenPageSettled(work);
    cancel();
    load();
    idle.run();
    vi.advanceTimersByTime(SETTLED_LOAD_WAIT_MS * 2);
    expect(work).not.toHaveBeenCalled();
  });
});
