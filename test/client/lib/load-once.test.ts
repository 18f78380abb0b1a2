import { describe, expect, it } from 'vitest';
import { loadOnce } from '../../../src/client/lib/load-once';

describe('loadOnce', () => {
  it('loads once for every caller while the load is kept', async () => {
    let loads = 0;
    const load = loadOnce(() => Promise.resolve(++loads));
    const [a, b] = await Promise.all([load(), load()]);
    expect([a, b, await load()]).toEqual([1, 1, 1]);
    expect(loads).toBe(1);
  });

  it('forgets a failed load: its caller sees the failure, the next call loads afresh', async () => {
    let loads = 0;
    const load = loadOnce(() =>
      ++loads === 1 ? Promise.reject(new Error('no signal')) : Promise.resolve('chunk'),
    );
    await expect(load()).rejects.toThrow('no signal');
    await expect(load()).resolves.toBe('chunk');
    await expect(load()).resolves.toBe('chunk');
    expect(loads).toBe(2);
  });

  it('a failed load nobody awaited raises no unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const load = loadOnce(() => Promise.reject(new Error('no signal')));
      void load();
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
