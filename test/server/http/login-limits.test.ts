import { describe, expect, it } from 'vitest';
import { HttpError } from '../../../src/server/http/http-error';
import { LoginLimits } from '../../../src/server/http/login-limits';

/** The 429 a call throws, or null when it lets the attempt through. */
function refusal(fn: () => void): HttpError | null {
  try {
    fn();
    return null;
  } catch (err) {
    if (err instanceof HttpError) return err;
    throw err;
  }
}

const T0 = Date.UTC(2026, 10, 24, 8, 0, 0);

describe('sign-in limits (contract §7), one class for the records service and the BFF', () => {
  it('refuses the attempt after the limit from one address, saying when to try again', () => {
    const limits = new LoginLimits({
      attemptsPerAddress: 3,
      failuresPerUsername: 10,
      windowMs: 60_000,
    });
    for (let i = 0; i < 3; i++)
      expect(refusal(() => limits.attempt('10.0.0.1', T0 + i * 1000))).toBeNull();
    const e = refusal(() => limits.attempt('10.0.0.1', T0 + 10_000));
    expect(e?.status).toBe(429);
    expect(e?.code).toBe('rate_limited');
    // The first attempt leaves the window at T0 + 60 s: 50 s from now.
    expect(e?.headers).toEqual({ 'Retry-After': '50' });
    expect(e?.message).toContain('50 s');
    // Another address is not held back by this one.
    expect(refusal(() => limits.attempt('10.0.0.2', T0 + 10_000))).toBeNull();
  });

  it('slides: one attempt is allowed again as soon as the oldest leaves the window, not a whole window later', () => {
    const limits = new LoginLimits({
      attemptsPerAddress: 2,
      failuresPerUsername: 10,
      windowMs: 60_000,
    });
    limits.attempt('a', T0);
    limits.attempt('a', T0 + 30_000);
    expect(refusal(() => limits.attempt('a', T0 + 59_999))).not.toBeNull();
    expect(refusal(() => limits.attempt('a', T0 + 60_001))).toBeNull();
    // The attempt at T0 + 30 s is still in the window: the next one waits until T0 + 90 s.
    expect(refusal(() => limits.attempt('a', T0 + 60_002))?.headers).toEqual({
      'Retry-After': '30',
    });
  });

  it('counts failures per username whatever its case, and only failures', () => {
    const limits = new LoginLimits({
      attemptsPerAddress: 300,
      failuresPerUsername: 2,
      windowMs: 60_000,
    });
    limits.begin('Demo-Tech', T0).failed(T0);
    limits.begin('demo-tech', T0 + 1000).failed(T0 + 1000);
    // A signed-in attempt is no failure.
    limits.begin('demo-manager', T0 + 1500).done();
    expect(refusal(() => limits.begin('DEMO-TECH', T0 + 2000))?.status).toBe(429);
    expect(refusal(() => limits.begin('demo-manager', T0 + 2000)?.done())).toBeNull();
    expect(refusal(() => limits.begin('demo-tech', T0 + 61_001).done())).toBeNull();
  });

  it('counts an attempt still being checked as a failure, until it is settled once', () => {
    const limits = new LoginLimits({
      attemptsPerAddress: 300,
      failuresPerUsername: 2,
      windowMs: 60_000,
    });
    const first = limits.begin('demo-tech', T0);
    const second = limits.begin('demo-tech', T0);
    expect(refusal(() => limits.begin('demo-tech', T0))?.status).toBe(429);
    first.done();
    first.done();
    const third = limits.begin('demo-tech', T0);
    second.failed(T0);
    third.done();
    expect(refusal(() => limits.begin('demo-tech', T0).done())).toBeNull();
  });
});
