import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { preloadWhenIdle } from '../../../src/client/app/lazy-chunk';

/** A chunk whose fetch the test ends: `asked` counts the calls, `arrive` settles the last one. */
function chunk() {
  const c = { asked: 0, arrive: (_ok: boolean) => {} };
  return Object.assign(c, {
    preload: () =>
      new Promise<void>((resolve, reject) => {
        c.asked += 1;
        c.arrive = (ok) => (ok ? resolve() : reject(new Error('offline')));
      }),
  });
}

describe('preloadWhenIdle: the screens Home opens, fetched ahead one at a time', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('asks for each chunk only once the one before has come, or failed', async () => {
    const [map, list, form] = [chunk(), chunk(), chunk()];
    preloadWhenIdle([map, list, form], 2_000);
    await vi.advanceTimersByTimeAsync(1_999);
    expect([map.asked, list.asked, form.asked]).toEqual([0, 0, 0]);
    await vi.advanceTimersByTimeAsync(1);
    expect([map.asked, list.asked, form.asked]).toEqual([1, 0, 0]);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(list.asked).toBe(0);
    map.arrive(true);
    await vi.advanceTimersByTimeAsync(0);
    expect([map.asked, list.asked, form.asked]).toEqual([1, 1, 0]);
    // A chunk that could not come does not hold back the next one.
    list.arrive(false);
    await vi.advanceTimersByTimeAsync(0);
    expect([map.asked, list.asked, form.asked]).toEqual([1, 1, 1]);
  });

  it('asks for nothing more once cancelled (Home left, the user signed out)', async () => {
    const [map, list] = [chunk(), chunk()];
    const cancel = preloadWhenIdle([map, list], 2_000);
    await vi.advanceTimersByTimeAsync(2_000);
    cancel();
    map.arrive(true);
    await vi.advanceTimersByTimeAsync(10_000);
    expect([map.asked, list.asked]).toEqual([1, 0]);

    const late = chunk();
    preloadWhenIdle([late], 2_000)();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(late.asked).toBe(0);
  });
});
