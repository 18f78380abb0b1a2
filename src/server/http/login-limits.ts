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

  /** Throws 429 while `username` has had too many failures, before its password is checked. */
  checkUser(username: string, now: number): void {
    const wait = this.failuresByUser.retryAfter(username.toLowerCase(), now);
    if (wait > 0) throw rateLimited(wait);
  }

  failed(username: string, now: number): void {
    this.failuresByUser.record(username.toLowerCase(), now);
  }
}
