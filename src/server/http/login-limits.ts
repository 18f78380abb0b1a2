import { HttpError } from './http-error';
import { SlidingWindow } from './sliding-window';

export type LoginLimitOptions = {
  /** Failed attempts per username per window (contract §7: 10 a minute). */
  failuresPerUsername: number;
  /** Attempts per client address per window (contract §7: 300 a minute). */
  attemptsPerAddress: number;
  windowMs: number;
};

export const DEFAULT_LOGIN_LIMITS: LoginLimitOptions = {
  failuresPerUsername: 10,
  attemptsPerAddress: 300,
  windowMs: 60_000,
};

/** 429 for a sign-in over a limit, here or the upstream's (its Retry-After passed on). */
export const rateLimited = (seconds: number) =>
  new HttpError(
    429,
    'rate_limited',
    `Too many sign-in attempts: wait ${seconds} s and try again`,
    undefined,
    { 'Retry-After': String(seconds) },
  );

/**
 * The two login limits of contract §7, kept in memory per process: attempts per client address,
 * and failures per username (case-insensitive). The records service's /login and the BFF's
 * sign-in both apply them (the BFF before the upstream, which may have none).
 */
export class LoginLimits {
  private readonly byAddress: SlidingWindow;
  private readonly failuresByUser: SlidingWindow;

  constructor(options: LoginLimitOptions = DEFAULT_LOGIN_LIMITS) {
    this.byAddress = new SlidingWindow(options.attemptsPerAddress, options.windowMs);
    this.failuresByUser = new SlidingWindow(options.failuresPerUsername, options.windowMs);
  }

  /** Counts an attempt from `address`; throws 429 when the address is over its limit. */
  attempt(address: string, now: number): void {
    const wait = this.byAddress.retryAfter(address, now);
    if (wait > 0) throw rateLimited(wait);
    this.byAddress.record(address, now);
  }

  /**
   * An attempt to sign in as `username`, before its password is checked (here, or by the BFF's
   * upstream): until it is settled, it counts as a failure of `username`, so a burst of attempts
   * sent together cannot all pass the check before the first failure is counted. Throws 429
   * when the failures and the attempts still out reach the limit. Settle it exactly once: `failed`
   * (wrong password) or `done` (signed in, or no answer on the password).
   */
  begin(username: string, now: number): LoginAttempt {
    const key = username.toLowerCase();
    const out = this.pendingByUser.get(key) ?? 0;
    const wait = this.failuresByUser.retryAfter(key, now, out);
    if (wait > 0) throw rateLimited(wait);
    this.pendingByUser.set(key, out + 1);
    let settled = false;
    const settle = () => {
      if (settled) return false;
      settled = true;
      const left = (this.pendingByUser.get(key) ?? 1) - 1;
      if (left > 0) this.pendingByUser.set(key, left);
      else this.pendingByUser.delete(key);
      return true;
    };
    return {
      failed: (at) => {
        if (settle()) this.failuresByUser.record(key, at);
      },
      done: () => {
        settle();
      },
    };
  }

  /** Attempts begun and not settled yet, by lower-cased username. */
  private readonly pendingByUser = new Map<string, number>();
}

/** One sign-in attempt in flight (LoginLimits.begin). */
export type LoginAttempt = { failed(now: number): void; done(): void };
