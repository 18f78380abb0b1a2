/**
 * Fixed one-minute windows of counts per key (contract §7): a count that reaches its limit is
 * refused until its window ends. Per process: several BFF processes each apply the limits.
 */
export class WindowLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number,
  ) {}

  /** Seconds until `key` may try again, or 0 when it may now. */
  retryAfterSeconds(key: string): number {
    const w = this.current(key);
    if (!w || w.count < this.limit) return 0;
    return Math.max(1, Math.ceil((w.start + this.windowMs - this.now()) / 1000));
  }

  hit(key: string): void {
    const w = this.current(key);
    if (w) w.count += 1;
    else this.windows.set(key, { start: this.now(), count: 1 });
    if (this.windows.size > 10_000) this.prune();
  }

  private current(key: string) {
    const w = this.windows.get(key);
    if (w && this.now() - w.start >= this.windowMs) {
      this.windows.delete(key);
      return undefined;
    }
    return w;
  }

  private prune() {
    const t = this.now();
    for (const [k, w] of this.windows) if (t - w.start >= this.windowMs) this.windows.delete(k);
  }
}

export type LoginLimits = {
  failuresPerUsername: number;
  attemptsPerAddress: number;
  windowMs: number;
};
export const DEFAULT_LOGIN_LIMITS: LoginLimits = {
  failuresPerUsername: 10,
  attemptsPerAddress: 300,
  windowMs: 60_000,
};
