export type BackoffOptions = {
  /** Delay scale of the first retry (ms). */
  baseMs: number;
  /** Upper bound of any computed delay (ms). */
  capMs: number;
};

export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 1_000, capMs: 5 * 60_000 };

/**
 * Exponential backoff with full jitter: after the n-th failed attempt (n ≥ 1) wait a uniformly
 * random time in [0, min(cap, base·2^(n-1))). A server's Retry-After is a floor, never shortened
 * by jitter (it may exceed the cap: the server knows best when it can take the request).
 */
export function backoffDelay(
  attempts: number,
  options: BackoffOptions = DEFAULT_BACKOFF,
  random: () => number = Math.random,
  retryAfterMs: number | null = null,
): number {
  const n = Math.max(1, attempts);
  const ceiling = Math.min(options.capMs, options.baseMs * 2 ** Math.min(n - 1, 30));
  const jittered = Math.floor(random() * ceiling);
  return Math.max(jittered, retryAfterMs ?? 0);
}
