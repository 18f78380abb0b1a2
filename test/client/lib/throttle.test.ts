import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { throttle } from '../../../src/client/lib/throttle';

describe('throttle', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs the first call at once and folds a burst into one trailing call with the latest value', () => {
    const seen: number[] = [];
    const report = throttle((n: number) => seen.push(n), 250);
    report(1);
    expect(seen).toEqual([1]);
    for (let n = 2; n <= 40; n++) report(n);
    expect(seen).toEqual([1]);
    vi.advanceTimersByTime(250);
    expect(seen).toEqual([1, 40]);
    // A call after a quiet window runs at once again.
    vi.advanceTimersByTime(1000);
    report(41);
    expect(seen).toEqual([1, 40, 41]);
  });

  it('drops a pending call on cancel, so nothing stale lands after the end', () => {
    const seen: number[] = [];
    const report = throttle((n: number) => seen.push(n), 250);
    report(1);
    report(2);
    report.cancel();
    vi.advanceTimersByTime(1000);
    expect(seen).toEqual([1]);
  });
});
