import type { OutboxEntry, OutboxError } from '#shared';
import type { DrainTally } from './drain-graph';
import { dependentsIn, heldIds } from './outbox-graph';
import type { PullProgress } from './pull-records';

/** What the UI shows about the outbox, at all times. */
export type SyncStatus = {
  /**
   * The outbox has been counted (once at least): until then every count below is a zero that
   * means nothing, and nothing may be said from them ("All changes sent", "0 not sent").
   */
  counted: boolean;
  /** Waiting to be sent (not held behind a parked or conflicting entry). */
  pending: number;
  /** Being sent right now. */
  sending: number;
  /**
   * The localIds of the records whose entries are being sent right now, by this tab's engine:
   * what a record's "Sending" badge shows. Kept in memory, never on the record: writing it there
   * cost two IndexedDB requests of nine per entry sent (measured in the drain benches). Updated
   * with the counts, at most 100 ms late. Other tabs see the record as saved until it is synced.
   */
  sendingRecords: ReadonlySet<string>;
  /** Refused by the server: the user fixes or discards them. */
  parked: number;
  /** Changed on the server too: the user chooses field by field. */
  conflict: number;
  /** Waiting on a parked or conflicting entry. */
  held: number;
  online: boolean;
  /** Sign-in needed: nothing is sent until resume(). */
  paused: boolean;
  draining: boolean;
  /** While draining: entries acknowledged in this drain out of those it can send. */
  progress: { sent: number; total: number } | null;
  /**
   * Last time a sync left nothing waiting (ms epoch): every change sent, none refused, held or
   * paused. A sync that sent only part of the queue is not a sync the tablet may call done.
   */
  lastSuccessAt: number | null;
  lastPullAt: number | null;
  /**
   * The last automatic pull failed and none has got through since: why, when (ms epoch), and
   * when the next try is due (`retryAt`, ms epoch; now or past once a trigger asked for it).
   * Null once a pull succeeds, in this tab or another. With nothing of the tablet's waiting the
   * headline says "All changes sent": this is what says the office's changes have not come.
   */
  pullFailure: PullFailure | null;
  /**
   * While a pull runs: the list being downloaded, rows received so far and the list's total
   * (null when the server gives none). Null between pulls.
   */
  pulling: PullProgress | null;
  /** When the next retry is due (ms epoch), if any entry is backing off. */
  nextAttemptAt: number | null;
  /** The most recent transient error (network, server, rate limit), while entries still wait. */
  lastError: OutboxError | null;
};

/**
 * Why a pull failed: a SyncError's reason, or 'tablet' for a failure of the tablet's own (its
 * storage refused the rows, a worker died).
 */
export type PullFailure = { reason: OutboxError['reason'] | 'tablet'; at: number; retryAt: number };

export const INITIAL_STATUS: SyncStatus = {
  counted: false,
  pending: 0,
  sending: 0,
  sendingRecords: new Set(),
  parked: 0,
  conflict: 0,
  held: 0,
  online: true,
  paused: false,
  draining: false,
  progress: null,
  lastSuccessAt: null,
  lastPullAt: null,
  pullFailure: null,
  pulling: null,
  nextAttemptAt: null,
  lastError: null,
};

/** The outbox's share of the status: counts by state, next retry and latest transient error. */
export function outboxCounts(
  entries: OutboxEntry[],
  inFlight: ReadonlySet<string>,
): Pick<
  SyncStatus,
  'counted' | 'pending' | 'sending' | 'parked' | 'conflict' | 'held' | 'nextAttemptAt' | 'lastError'
> {
  const held = heldIds(entries);
  let pending = 0;
  let sending = 0;
  let parked = 0;
  let conflict = 0;
  let nextAttemptAt: number | null = null;
  let lastError: OutboxError | null = null;
  for (const e of entries) {
    if (e.state === 'parked') parked += 1;
    else if (e.state === 'conflict') conflict += 1;
    else if (held.has(e.id)) continue;
    else if (inFlight.has(e.id) || e.state === 'sending') sending += 1;
    else {
      pending += 1;
      if (e.nextAttemptAt > 0 && (nextAttemptAt === null || e.nextAttemptAt < nextAttemptAt))
        nextAttemptAt = e.nextAttemptAt;
      if (
        e.lastError &&
        e.lastError.reason !== 'rejected' &&
        (!lastError || e.lastError.at > lastError.at)
      )
        lastError = e.lastError;
    }
  }
  return {
    counted: true,
    pending,
    sending,
    parked,
    conflict,
    held: held.size,
    nextAttemptAt,
    lastError,
  };
}

/**
 * The counts while a drain runs, from the drain's own view of the outbox (DrainGraph.tally)
 * and the `unseen` entries stored but not yet in that view (saved since it last looked, counted
 * pending: DrainView.countUnseen), instead of reading, or counting, every entry: a week's queue
 * re-read every 100 ms would cost more than the sends. The next retry and latest error are
 * the outbox's business: they stay as the last full count (outboxCounts) found them.
 */
export function drainingCounts(
  tally: DrainTally,
  unseen: number,
  inFlight: ReadonlySet<string>,
): Pick<SyncStatus, 'counted' | 'pending' | 'sending' | 'parked' | 'conflict' | 'held'> {
  const sending = Math.min(inFlight.size, tally.sendable);
  return {
    counted: true,
    pending: tally.sendable - sending + unseen,
    sending,
    parked: tally.parked,
    conflict: tally.conflict,
    held: tally.held,
  };
}

/**
 * The one account of what is not on the server, which every screen shows (the sync bar, Home,
 * the Sync screen): the outbox's entries fall in exactly one of pending, sending, parked,
 * conflict and held (outboxCounts), so `waiting` counts each change once.
 */
export type SyncSummary = {
  /** Every change on this tablet the server has not acknowledged, held-behind ones included. */
  waiting: number;
  /** Will go without the user: pending (maybe backing off) or being sent. */
  ready: number;
  /** Refused or conflicting: the user fixes, chooses or discards them. */
  attention: number;
  /** Waiting on a change that needs attention: nothing sends them until it is resolved. */
  held: number;
  /** Nothing waits: the only state in which the tablet may say everything is sent. */
  allSent: boolean;
};

export function syncSummary(
  status: Pick<SyncStatus, 'pending' | 'sending' | 'parked' | 'conflict' | 'held'>,
): SyncSummary {
  const ready = status.pending + status.sending;
  const attention = status.parked + status.conflict;
  const waiting = ready + attention + status.held;
  return { waiting, ready, attention, held: status.held, allSent: waiting === 0 };
}

/**
 * For each entry that needs the user (parked or conflicting), the entries it holds back: those
 * that wait on it, directly or through others, nearest first.
 */
export function heldBehind(entries: OutboxEntry[]): Map<string, OutboxEntry[]> {
  const out = new Map<string, OutboxEntry[]>();
  for (const e of entries) {
    if (e.state === 'parked' || e.state === 'conflict') out.set(e.id, dependentsIn(entries, e.id));
  }
  return out;
}
