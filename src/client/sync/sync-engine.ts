import { Dexie, type ObservabilitySet } from 'dexie';
import type { OutboxEntry } from '#shared';
import { OWNER_HEADER, ownerHeaderValue } from '#shared/schemas/auth';
import type { TraplineDb } from '../db/database';
import { connection } from '../lib/connection';
import { onAuthRequired } from '../lib/http';
import { writesTo } from '../lib/storage-mutations';
import { throttle } from '../lib/throttle';
import { backoffDelay, DEFAULT_BACKOFF, type BackoffOptions } from './backoff';
import { readWholeOutbox } from './outbox-reader';
import { DEFAULT_PULL, type PullOptions } from './pull-options';
import type { DrainView } from './drain-outbox';
import type { ConflictChoices } from './resolve-conflict';
import { runExclusive } from './run-exclusive';
import type { SyncContext } from './sync-context';
import { SyncError } from './sync-error';
import {
  INITIAL_STATUS,
  drainingCounts,
  outboxCounts,
  syncSummary,
  type SyncStatus,
} from './sync-status';

export type SyncEngineOptions = {
  /** Prefix of `/api/...`; empty (same origin) in the app. */
  baseUrl?: string;
  /**
   * Extra headers on every request (a cookie when running outside a browser, e.g. a benchmark).
   * The engine keeps this object and reads it on every request (so a cookie replaced in it after a
   * new sign-in is sent from then on), and adds OWNER_HEADER to it when `owner` is given.
   */
  headers?: Record<string, string>;
  /**
   * The user whose database this is, named on every request (OWNER_HEADER): the BFF refuses to
   * act on it under another user's session (another tab signed in as someone else).
   */
  owner?: { agencyId: number; username: string };
  /** Entries in flight together (default 3). */
  concurrency?: number;
  backoff?: Partial<BackoffOptions>;
  now?: () => number;
  random?: () => number;
  timeoutMs?: number;
  /** Web Locks name: one drain at a time across the tabs of a user (default 'trapline-outbox'). */
  lockName?: string;
  /** BroadcastChannel name for status between tabs; null to disable. */
  channelName?: string | null;
  pull?: Partial<PullOptions>;
  /**
   * Pull after draining when the app starts, comes online, signs in again or on Sync now, and when
   * it is shown again with its last pull PULL_WHEN_SHOWN_AFTER_MS old (default true).
   */
  autoPull?: boolean;
  /** How long a failed automatic pull waits before it is tried again (default PULL_RETRY). */
  pullRetry?: Partial<BackoffOptions>;
  /** While entries wait with no retry due (e.g. none yet tried), look again after this long (ms). */
  idlePollMs?: number;
};

export type SyncEngine = {
  readonly db: TraplineDb;
  /** Installs the triggers (app start, online, visibilitychange, retry timer) and drains once. */
  start(): void;
  stop(): void;
  /** Drain now (after a save, Sync now). 'manual' also skips the wait of entries backing off. */
  requestSync(reason?: string): void;
  /** After sign-in: un-pauses the queue and drains. */
  resume(): void;
  pull(): Promise<void>;
  subscribe(fn: (status: SyncStatus) => void): () => void;
  getStatus(): SyncStatus;
  /** Discards an entry; its dependents too only when listed in `dependents` (else it throws). */
  discard(entryId: string, dependents?: string[]): Promise<void>;
  dependentsOf(entryId: string): Promise<OutboxEntry[]>;
  resolveConflict(entryId: string, choices: ConflictChoices): Promise<void>;
  /** Resolves once nothing more can be sent without the user (or the queue is paused). */
  settled(): Promise<void>;
};

const PULL_REASONS = new Set(['start', 'online', 'resume', 'manual']);
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
const META_LAST_SUCCESS = 'sync.lastSuccessAt';
/** A failure stamped this far after now means the clock was set back (see failedLater). */
const CLOCK_SLACK_MS = 60_000;
/** How often a running drain reports its progress (the sync bar's "n of m"). */
const PROGRESS_EVERY_MS = 250;

type ChannelMessage = {
  type: 'status';
  status: Pick<SyncStatus, 'draining' | 'progress' | 'lastSuccessAt' | 'lastPullAt' | 'paused'>;
};

/** The earlier of two times, either of which may be unknown (null). */
const earliest = (a: number | null, b: number | null) =>
  a === null ? b : b === null ? a : Math.min(a, b);

/** The later of two times, either of which may be unknown (null). */
const later = (a: number | null, b: number | null) =>
  a === null ? b : b === null ? a : Math.max(a, b);

export function createSyncEngine(db: TraplineDb, options: SyncEngineOptions = {}): SyncEngine {
  // The caller's own object, read on every request: a caller outside a browser replaces its
  // cookie there after a new sign-in, as a browser's cookie jar does. The owner is added to it.
  const headers = options.headers ?? {};
  if (options.owner) headers[OWNER_HEADER] = ownerHeaderValue(options.owner);
  const ctx: SyncContext = {
    db,
    baseUrl: options.baseUrl ?? '',
    headers,
    now: options.now ?? Date.now,
    random: options.random ?? Math.random,
    backoff: { ...DEFAULT_BACKOFF, ...options.backoff },
    timeoutMs: options.timeoutMs ?? 30_000,
  };
  const lockName = options.lockName ?? 'trapline-outbox';
  const concurrency = options.concurrency ?? 3;
  const autoPull = options.autoPull ?? true;
  const idlePollMs = options.idlePollMs ?? 60_000;
  const pullOptions: PullOptions = { ...DEFAULT_PULL, ...options.pull };
  const pullRetry: BackoffOptions = { ...PULL_RETRY, ...options.pullRetry };

  // `online` is the app's one connection state (lib/connection), which this engine's own requests
  // feed: a failed send or pull means no connection, an answer means connected.
  let status: SyncStatus = { ...INITIAL_STATUS, online: connection.online };
  const listeners = new Set<(s: SyncStatus) => void>();
  let inFlight: ReadonlySet<string> = new Set();
  let sendingRecords: ReadonlySet<string> = new Set();
  let cycle: Promise<void> | null = null;
  let again = false;
  /**
   * A pull was asked for (start, online, resume, Sync now) and has not begun since. Kept apart
   * from the cycle's own reason: Sync now tapped while a pull runs must pull again once that one
   * ends (the running pull may have read the lists before the change the technician expects),
   * and the cycle that picks the request up runs for reason 'again'.
   */
  let pullWanted = false;
  /**
   * Automatic pulls failed in a row. When the next may be tried is status.pullFailure's retryAt
   * (no failure: whenever wanted), which the bar shows.
   */
  let pullFailures = 0;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let channel: BroadcastChannel | null = null;
  const teardown: Array<() => void> = [];

  const setStatus = (patch: Partial<SyncStatus>, broadcast = false) => {
    status = { ...status, ...patch };
    for (const fn of listeners) fn(status);
    if (broadcast && channel) {
      const { draining, progress, lastSuccessAt, lastPullAt, paused } = status;
      const message: ChannelMessage = {
        type: 'status',
        status: { draining, progress, lastSuccessAt, lastPullAt, paused },
      };
      channel.postMessage(message);
    }
  };

  // Counts are recomputed from the outbox, coalesced: one read at a time, one more if asked
  // meanwhile. While a drain runs, from its view of the outbox and the entries saved since it
  // last looked (DrainView), never from every entry.
  let drainView: DrainView | null = null;
  let counting: Promise<void> | null = null;
  let countAgain = false;
  const refreshCounts = (): Promise<void> => {
    if (counting) {
      countAgain = true;
      return counting;
    }
    counting = (async () => {
      do {
        countAgain = false;
        const view = drainView;
        if (view) {
          const unseen = await view.countUnseen();
          // The drain ended meanwhile (or another began): count again, from the outbox itself.
          if (drainView === view)
            setStatus({ ...drainingCounts(view.tally(), unseen, inFlight), sendingRecords });
          else countAgain = true;
        } else {
          const entries = await readWholeOutbox(db);
          setStatus({ ...outboxCounts(entries, inFlight), sendingRecords });
          if (entries.some(failedLater(ctx.now()))) {
            await rebaseBackoff();
            countAgain = true;
            requestSync('clock');
          }
        }
      } while (countAgain);
    })().finally(() => {
      counting = null;
    });
    return counting;
  };

  // An entry whose last failure is stamped later than now: the tablet's clock was set back since
  // (it ran ahead, then was put right). Its next try, stamped on the wrong clock, is as far off as
  // the clock moved (days: past any backoff, and past Sync now for a Retry-After): it waits again
  // only its own delay, from now. Found by the full counts (app start, after each drain).
  const failedLater = (now: number) => (e: OutboxEntry) =>
    e.state === 'pending' && e.lastError !== null && e.lastError.at > now + CLOCK_SLACK_MS;
  const rebaseBackoff = async () => {
    const now = ctx.now();
    await db.outbox.filter(failedLater(now)).modify((e) => {
      if (!e.lastError) return;
      e.nextAttemptAt = now + Math.max(0, e.nextAttemptAt - e.lastError.at);
      e.lastError = { ...e.lastError, at: now };
    });
  };

  // While draining, counts follow at most every 100 ms: re-reading the outbox after every send
  // would cost more than the sends. The end of each drain refreshes them exactly.
  let countTimer: ReturnType<typeof setTimeout> | null = null;
  const scheduleCounts = () => {
    if (countTimer) return;
    countTimer = setTimeout(() => {
      countTimer = null;
      void refreshCounts().catch(() => undefined);
    }, 100);
  };

  const pause = () => {
    if (status.paused) return;
    setStatus({ paused: true }, true);
  };

  // "Last synced" only for a sync that left nothing waiting: a partial drain, a refused change
  // or a pause for sign-in is no such sync, and saying so would tell the technician to stop looking.
  const recordSyncIfAllSent = async (countsFresh = false) => {
    if (!countsFresh) await refreshCounts();
    if (status.paused || !syncSummary(status).allSent) return;
    const at = ctx.now();
    setStatus({ lastSuccessAt: at }, true);
    await db.meta.put({ key: META_LAST_SUCCESS, value: at });
  };

  const scheduleTimer = (nextAttemptAt: number | null) => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (stopped || status.paused) return;
    let delay: number | null = null;
    if (nextAttemptAt !== null) delay = Math.max(0, nextAttemptAt - ctx.now());
    else if (status.pending > 0) delay = idlePollMs;
    if (delay === null) return;
    timer = setTimeout(() => {
      timer = null;
      requestSync('timer');
    }, delay);
  };

  // Progress at most every 250 ms: after every answer it re-rendered the sync bar and told other
  // tabs hundreds of times a minute, and on a two-core tablet that CPU came out of the drain (the
  // renderer's CPU per request fell from 7.0–7.8 to 5.2 ms in the drain bench). A bar that moves
  // four times a second reads the same.
  const reportProgress = throttle(
    (progress: SyncStatus['progress']) => setStatus({ progress }, true),
    PROGRESS_EVERY_MS,
  );
  const runCycle = async () => {
    let nextAttemptAt: number | null = null;
    let sentAny = false;
    setStatus({ draining: true, progress: null }, true);
    try {
      do {
        again = false;
        // Loaded on the first drain, not with the first screen (the service worker keeps it for
        // offline starts; registerType 'prompt' keeps an open page's chunks until it reloads).
        const { drainOutbox } = await import('./drain-outbox');
        const result = await runExclusive(lockName, () =>
          drainOutbox(ctx, {
            concurrency,
            shouldStop: () => stopped || status.paused,
            onPause: pause,
            onAcknowledged: () => {
              sentAny = true;
            },
            onProgress: reportProgress,
            onInFlight: (ids, records) => {
              inFlight = ids;
              sendingRecords = records;
              scheduleCounts();
            },
            onView: (view) => {
              drainView = view;
            },
          }),
        );
        nextAttemptAt = result.nextAttemptAt;
      } while (again && !status.paused && !stopped);
      if (autoPull && pullWanted && !status.paused && !stopped && mayBeOnline() && pullDue()) {
        pullWanted = false;
        await pull().then(pullSucceeded, pullFailed);
      }
    } finally {
      reportProgress.cancel();
      await refreshCounts().catch(() => undefined);
      if (sentAny) await recordSyncIfAllSent(true).catch(() => undefined);
      setStatus({ draining: false, progress: null }, true);
      scheduleTimer(
        earliest(nextAttemptAt, pullWanted ? (status.pullFailure?.retryAt ?? null) : null),
      );
    }
  };

  // A last pull stamped far ahead of now was stamped before the clock was set back: old too.
  const lastPullIsOld = () =>
    status.lastPullAt === null ||
    Math.abs(ctx.now() - status.lastPullAt) > PULL_WHEN_SHOWN_AFTER_MS;
  // A clock that reads earlier than the failure was set back since: the retry time, stamped on
  // the old clock, is due now (the timer set for it fired after its wait, in real time).
  const pullDue = () => {
    const failure = status.pullFailure;
    const now = ctx.now();
    return failure === null || failure.retryAt <= now || now < failure.at;
  };
  const pullSucceeded = () => {
    pullFailures = 0;
  };
  // Wanted again, at a time of its own: a save's drain meanwhile does not pull before then. A
  // pull that paused the queue (sign-in needed) is asked for again by the sign-in itself.
  const pullFailed = (err: unknown) => {
    if (status.paused || stopped) return;
    pullFailures += 1;
    pullWanted = true;
    const retryAfterMs = err instanceof SyncError ? err.retryAfterMs : null;
    const delay = backoffDelay(pullFailures, pullRetry, ctx.random, retryAfterMs);
    const at = ctx.now();
    const retryAt = at + Math.max(pullRetry.baseMs / 2, delay);
    const reason = err instanceof SyncError ? err.reason : 'tablet';
    setStatus({ pullFailure: { reason, at, retryAt } });
  };

  const clearBackoff = async () => {
    const now = ctx.now();
    // One walk of the outbox on a tap of Sync now: not worth an index the drain would write on
    // every send. A server's Retry-After is honoured even on Sync now.
    await db.outbox
      .filter(
        (e) =>
          e.state === 'pending' && e.nextAttemptAt > now && e.lastError?.reason !== 'rate_limited',
      )
      .modify({ nextAttemptAt: 0 });
  };

  function requestSync(reason = 'manual') {
    if (stopped || status.paused) return;
    // Offline for sure (navigator.onLine false is reliable, true is not): the 'online' event
    // resumes. Offline only by the app's own failed requests, it tries: its timer's retries and
    // Sync now are how a network that came back without an event gets used at once.
    if (!mayBeOnline()) return;
    if (PULL_REASONS.has(reason)) {
      // Asked for now (app start, back online, signed in again, Sync now): no wait left to honour.
      pullWanted = true;
      // The next try is now, and the bar must not go on naming the old time.
      if (status.pullFailure)
        setStatus({ pullFailure: { ...status.pullFailure, retryAt: ctx.now() } });
    } else if (reason === 'visible' && lastPullIsOld()) {
      // Not a request to hurry: a failed pull's wait still holds (flipping between apps on one
      // bar of signal is no reason to try again sooner).
      pullWanted = true;
    }
    if (cycle) {
      // Picked up by the next pass of the running cycle, which re-reads the outbox.
      if (reason === 'manual') void clearBackoff().catch(() => undefined);
      again = true;
      return;
    }
    cycle = (async () => {
      if (reason === 'manual') await clearBackoff();
      await runCycle();
    })()
      .catch(() => undefined)
      .finally(() => {
        cycle = null;
        if (again && !status.paused && !stopped) requestSync('again');
      });
  }

  async function pull() {
    try {
      // Under the outbox lock: no tab acknowledges a create while a pull compares the server's
      // list with the tablet's rows (a site sent between reading the list of ids and acting on
      // it would look deleted on the server and be dropped from the tablet).
      await runExclusive(lockName, () =>
        import('./pull-records').then(({ pullRecords }) =>
          pullRecords(ctx, pullOptions, (pulling) => setStatus({ pulling })),
        ),
      ).finally(() => setStatus({ pulling: null }));
      setStatus({ lastPullAt: ctx.now(), pullFailure: null }, true);
      await recordSyncIfAllSent();
    } catch (err) {
      if (err instanceof SyncError && err.action === 'pause') pause();
      throw err;
    }
  }

  /** False only when the browser says offline, which is reliable (its `true` is not). */
  function mayBeOnline() {
    return typeof navigator === 'undefined' || navigator.onLine !== false;
  }

  const engine: SyncEngine = {
    db,
    start() {
      stopped = false;
      // The browser's `online` proves no network: the requests it triggers (or the connection's
      // probe) do, and the connection state says so.
      const onOnline = () => requestSync('online');
      const onVisible = () => {
        if (document.visibilityState === 'visible') requestSync('visible');
      };
      if (typeof window !== 'undefined') {
        window.addEventListener('online', onOnline);
        teardown.push(() => window.removeEventListener('online', onOnline));
      }
      // Connected again with no `online` event (a probe or any request got an answer): treated
      // as the browser's `online` is, a drain and the office's changes now (entries backing off
      // keep their wait).
      teardown.push(
        connection.subscribe(() => {
          const online = connection.online;
          if (online === status.online) return;
          setStatus({ online });
          if (online) requestSync('online');
        }),
      );
      if (typeof document !== 'undefined') {
        document.addEventListener('visibilitychange', onVisible);
        teardown.push(() => document.removeEventListener('visibilitychange', onVisible));
      }
      teardown.push(onAuthRequired(pause));
      // Repositories (and other tabs) write the outbox too: recount after any change to it.
      // Dexie's mutation event costs nothing until it fires, unlike a live query re-reading the
      // whole outbox after every write; recounts are throttled (scheduleCounts).
      const onMutated = (parts: ObservabilitySet) => {
        if (writesTo(parts, db.name, ['outbox'])) scheduleCounts();
      };
      Dexie.on.storagemutated.subscribe(onMutated);
      teardown.push(() => Dexie.on.storagemutated.unsubscribe(onMutated));
      void refreshCounts().catch(() => undefined);
      if (options.channelName !== null && typeof BroadcastChannel !== 'undefined') {
        channel = new BroadcastChannel(options.channelName ?? `trapline-sync:${db.name}`);
        channel.onmessage = (event: MessageEvent<ChannelMessage>) => {
          if (event.data?.type !== 'status') return;
          const wasPaused = status.paused;
          const { lastSuccessAt, lastPullAt, ...rest } = event.data.status;
          // Sync times only move forward: a tab that has not read them yet (just opened) sends
          // null, and an older time is not news.
          // Another tab's pull got through since this tab's failed (the rows are the same
          // database's, so the office's changes are here): its own time says so, not this tab's
          // (stamped before a clock was set back, that may lie after the failure), and not one
          // stamped ahead of now.
          const pulledElsewhere =
            status.pullFailure !== null &&
            lastPullAt !== null &&
            lastPullAt > status.pullFailure.at &&
            lastPullAt <= ctx.now() + CLOCK_SLACK_MS;
          if (pulledElsewhere) {
            pullSucceeded();
            pullWanted = false;
          }
          setStatus({
            ...rest,
            lastSuccessAt: later(status.lastSuccessAt, lastSuccessAt),
            lastPullAt: later(status.lastPullAt, lastPullAt),
            ...(pulledElsewhere ? { pullFailure: null } : {}),
          });
          if (wasPaused && !event.data.status.paused) requestSync('resume');
        };
      }
      void db.meta.get(META_LAST_SUCCESS).then((row) => {
        if (typeof row?.value === 'number' && (status.lastSuccessAt ?? 0) < row.value)
          setStatus({ lastSuccessAt: row.value });
      });
      setStatus({ online: connection.online });
      requestSync('start');
    },
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      if (countTimer) clearTimeout(countTimer);
      countTimer = null;
      for (const fn of teardown.splice(0)) fn();
      channel?.close();
      channel = null;
    },
    requestSync,
    resume() {
      setStatus({ paused: false }, true);
      requestSync('resume');
    },
    pull,
    subscribe(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    getStatus: () => status,
    async discard(entryId, dependents = []) {
      const { discardEntry } = await import('./discard-entry');
      await discardEntry(ctx, entryId, dependents, inFlight);
      await refreshCounts();
    },
    dependentsOf: async (entryId) => (await import('./discard-entry')).dependentsOf(ctx, entryId),
    async resolveConflict(entryId, choices) {
      const { resolveConflict } = await import('./resolve-conflict');
      await resolveConflict(ctx, entryId, choices);
      await refreshCounts();
      requestSync('conflict-resolved');
    },
    async settled() {
      for (;;) {
        if (cycle) await cycle;
        await refreshCounts();
        if (status.paused || stopped) return;
        if (!cycle && status.pending === 0 && status.sending === 0) return;
        if (!cycle) {
          // Entries wait on their backoff: let the timer (or this wait) bring them round.
          await new Promise((resolve) =>
            setTimeout(resolve, Math.max(1, Math.min(50, (status.nextAttemptAt ?? 0) - ctx.now()))),
          );
          // The idle poll (idlePollMs, a minute) is no reason to wait when an entry is due now.
          const due = status.nextAttemptAt === null || status.nextAttemptAt <= ctx.now();
          if (!cycle && (!timer || due)) requestSync('settle');
        }
      }
    },
  };
  return engine;
}
