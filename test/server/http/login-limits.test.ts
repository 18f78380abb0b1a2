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
    limits.checkUser('Demo-Tech', T0);
    limits.failed('Demo-Tech', T0);
    limits.failed('demo-tech', T0 + 1000);
    expect(refusal(() => limits.checkUser('DEMO-TECH', T0 + 2000))?.status).toBe(429);
    expect(refusal(() => limits.checkUser('demo-manager', T0 + 2000))).toBeNull();
    expect(refusal(() => limits.checkUser('demo-tech', T0 + 61_001))).toBeNull();
  });
});
