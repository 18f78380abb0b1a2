/**
 * In-memory sliding-window counter per key: at most `limit` events in any `windowMs`.
 * Per process: several processes each apply their limits (contract §7 login limits).
 */
export class SlidingWindow {
  private readonly events = new Map<string, number[]>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  private recent(key: string, now: number): number[] {
    const list = (this.events.get(key) ?? []).filter((t) => t > now - this.windowMs);
    if (list.length === 0) this.events.delete(key);
    else this.events.set(key, list);
    return list;
  }

  /**
   * Seconds until another event is allowed; 0 when allowed now. `reserved` counts events that
   * may still happen (attempts whose outcome is not known yet) as if they had: when they alone
   * fill the window, 1 s.
   */
  retryAfter(key: string, now: number, reserved = 0): number {
    const list = this.recent(key, now);
    if (list.length + reserved < this.limit) return 0;
    const oldest = list[list.length + reserved - this.limit];
    if (oldest === undefined) return 1;
    return Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000));
  }

  record(key: string, now: number): void {
    const list = this.recent(key, now);
    list.push(now);
    this.events.set(key, list);
    // Keep memory bounded under a flood of distinct keys.
    if (this.events.size > 100_000) {
      for (const k of this.events.keys()) {
        this.recent(k, now);
        if (this.events.size <= 50_000) break;
      }
    }
  }

  clear(key: string): void {
    this.events.delete(key);
  }
}
