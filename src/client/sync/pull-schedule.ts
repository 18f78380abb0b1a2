import { backoffDelay, type BackoffOptions } from './backoff';
import { SyncError } from './sync-error';
import { CLOCK_SLACK_MS, type SyncStatusKeeper } from './sync-status-keeper';

/** Triggers that ask for the office's changes now: no wait left to honour. */
const PULL_REASONS = new Set(['start', 'online', 'resume', 'manual']);

/** Whether a trigger asks for the office's changes now (then its cycle pulls as start's would). */
export const asksForPull = (reason: string): boolean => PULL_REASONS.has(reason);
/**
 * A failed automatic pull is tried again on its own after this backoff (full jitter, never sooner
 * than half the base; a server's Retry-After is a floor). A tablet left on the seat with one bar
 * of signal gets the office's changes once a try gets through, without a tap on Sync now.
 */
export const PULL_RETRY: BackoffOptions = { baseMs: 30_000, capMs: 15 * 60_000 };
/**
 * The app shown again (the tablet woken, the technician back from another app) pulls too when
 * its last pull is older than this: the morning's first look shows what the office changed
 * overnight, while glancing back and forth in the field costs no pull. A pull asks only for what
 * changed since the last one.
 */
export const PULL_WHEN_SHOWN_AFTER_MS = 10 * 60_000;

/**
 * When the engine pulls: which triggers ask for a pull, and when a failed one is tried again.
 * The failure itself (why, when, when next) is in the status (pullFailure), which the bar shows;
 * this keeps what the bar does not: whether a pull is wanted, and how many failed in a row.
 */
export class PullSchedule {
  /**
   * A pull was asked for (start, online, resume, Sync now) and has not begun since. Kept apart
   * from the cycle's own reason: Sync now tapped while a pull runs must pull again once that one
   * ends (the running pull may have read the lists before the change the technician expects),
   * and the cycle that picks the request up runs for reason 'again'.
   */
  private wanted = false;
  /** Automatic pulls failed in a row. */
  private failures = 0;

  constructor(
    private readonly status: SyncStatusKeeper,
    private readonly retry: BackoffOptions,
    private readonly now: () => number,
    private readonly random: () => number,
  ) {}

  /** A trigger fired (see requestSync's reasons): whether it asks for a pull. */
  asked(reason: string): void {
    const { pullFailure } = this.status.current;
    if (asksForPull(reason)) {
      this.wanted = true;
      // The next try is now, and the bar must not go on naming the old time.
      if (pullFailure) this.status.set({ pullFailure: { ...pullFailure, retryAt: this.now() } });
    } else if (reason === 'visible' && this.lastPullIsOld()) {
      // Not a request to hurry: a failed pull's wait still holds (flipping between apps on one
      // bar of signal is no reason to try again sooner).
      this.wanted = true;
    }
  }

  /** Whether a pull is wanted now; unlike take(), asking does not take it. */
  get wantedNow(): boolean {
    return this.wanted && this.due();
  }

  /** Whether to pull now (then it is no longer wanted until asked again). */
  take(): boolean {
    if (!this.wantedNow) return false;
    this.wanted = false;
    return true;
  }

  /** When the engine should wake for a wanted pull that waits on its retry time; null: never. */
  get wakeAt(): number | null {
    return this.wanted ? (this.status.current.pullFailure?.retryAt ?? null) : null;
  }

  succeeded(): void {
    this.failures = 0;
  }

  /**
   * Wanted again, at a time of its own: a save's drain meanwhile does not pull before then. A
   * pull that paused the queue (sign-in needed) is asked for again by the sign-in itself.
   */
  failed(err: unknown): void {
    this.failures += 1;
    this.wanted = true;
    const retryAfterMs = err instanceof SyncError ? err.retryAfterMs : null;
    const delay = backoffDelay(this.failures, this.retry, this.random, retryAfterMs);
    const at = this.now();
    const retryAt = at + Math.max(this.retry.baseMs / 2, delay);
    const reason = err instanceof SyncError ? err.reason : 'tablet';
    this.status.set({ pullFailure: { reason, at, retryAt } });
  }

  /**
   * Another tab's pull got through since this tab's failed (the rows are the same database's, so
   * the office's changes are here): its own time says so, not this tab's (stamped before a clock
   * was set back, that may lie after the failure), and not one stamped ahead of now. Returns
   * whether it did; then this tab wants no pull.
   */
  pulledElsewhere(lastPullAt: number | null): boolean {
    const { pullFailure } = this.status.current;
    const elsewhere =
      pullFailure !== null &&
      lastPullAt !== null &&
      lastPullAt > pullFailure.at &&
      lastPullAt <= this.now() + CLOCK_SLACK_MS;
    if (elsewhere) {
      this.succeeded();
      this.wanted = false;
    }
    return elsewhere;
  }

  // A last pull stamped far ahead of now was stamped before the clock was set back: old too.
  private lastPullIsOld(): boolean {
    const { lastPullAt } = this.status.current;
    return lastPullAt === null || Math.abs(this.now() - lastPullAt) > PULL_WHEN_SHOWN_AFTER_MS;
  }

  // A clock that reads earlier than the failure was set back since: the retry time, stamped on
  // the old clock, is due now (the timer set for it fired after its wait, in real time).
  private due(): boolean {
    const failure = this.status.current.pullFailure;
    const now = this.now();
    return failure === null || failure.retryAt <= now || now < failure.at;
  }
}
