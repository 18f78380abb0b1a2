import { afterEach, describe, expect, it, vi } from 'vitest';
import { backoffDelay, DEFAULT_BACKOFF } from '../../../src/client/sync';
import { queueCreate, site } from './helpers/outbox-factory';
import { settleIo } from './helpers/fake-time';
import { setupEngine } from './helpers/setup-engine';

describe('backoffDelay', () => {
  it('doubles from about a second up to a five-minute cap', () => {
    const top = () => 0.999999;
    const delays = Array.from({ length: 12 }, (_, i) => backoffDelay(i + 1, DEFAULT_BACKOFF, top));
    expect(delays.slice(0, 5)).toEqual([999, 1999, 3999, 7999, 15999]);
    expect(Math.max(...delays)).toBeLessThanOrEqual(300_000);
    expect(delays[11]).toBe(299_999);
  });

  it('jitters over the whole interval (full jitter)', () => {
    expect(backoffDelay(4, DEFAULT_BACKOFF, () => 0)).toBe(0);
    expect(backoffDelay(4, DEFAULT_BACKOFF, () => 0.5)).toBe(4000);
  });

  it('never waits less than Retry-After, even beyond the cap', () => {
    expect(backoffDelay(1, DEFAULT_BACKOFF, () => 0, 30_000)).toBe(30_000);
    expect(backoffDelay(20, DEFAULT_BACKOFF, () => 0.1, 600_000)).toBe(600_000);
    expect(backoffDelay(3, DEFAULT_BACKOFF, () => 0.9, 10)).toBe(3600);
  });
});

describe('retry timer', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('retries a failed send when its backoff delay has passed, not before', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { db, bff, engine } = setupEngine({ backoff: DEFAULT_BACKOFF, random: () => 0.5 }, -1);
    const s = await queueCreate(db, 'site', site(1));
    let failures = 2;
    bff.fault = () => (failures-- > 0 ? { status: 503 } : null);
    const timeOfRequests: number[] = [];
    const realFetch = bff.fetch;
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
      timeOfRequests.push(Date.now());
      return realFetch(input, init);
    });

    const t0 = Date.now();
    engine.start();
    for (let i = 0; i < 20 && timeOfRequests.length < 1; i += 1) {
      await vi.advanceTimersByTimeAsync(0);
      await settleIo();
    }
    await vi.advanceTimersByTimeAsync(0);
    await settleIo();
    expect(timeOfRequests).toHaveLength(1);
    expect((await db.outbox.get(s.entryId))?.nextAttemptAt).toBe(t0 + 500);

    // First retry after 0.5 × 1 s; second after 0.5 × 2 s.
    await vi.advanceTimersByTimeAsync(499);
    await settleIo();
    expect(timeOfRequests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await settleIo();
    expect(timeOfRequests).toHaveLength(2);
    const second = timeOfRequests[1];
    await settleIo();
    const afterSecond = (await db.outbox.get(s.entryId))!;
    expect(afterSecond).toMatchObject({
      attempts: 2,
      lastError: { reason: 'server', status: 503 },
    });
    expect(afterSecond.nextAttemptAt).toBe(second + 1000);
    await vi.advanceTimersByTimeAsync(1000);
    await settleIo();
    expect(timeOfRequests).toHaveLength(3);
    await settleIo();
    expect(await db.outbox.count()).toBe(0);
    expect(bff.postsFor(s.entryId)).toBe(1);
    engine.stop();
  });
});
