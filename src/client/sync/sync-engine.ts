import { Dexie, type ObservabilitySet } from 'dexie';
import type { OutboxEntry } from '#shared';
import { OWNER_HEADER, ownerHeaderValue } from '#shared/schemas/auth';
import type { TraplineDb } from '../db/database';
import { connection } from '../lib/connection';
import { onAuthRequired } from '../lib/http';
import { writesTo } from '../lib/storage-mutations';
import { throttle } from '../lib/throttle';
import { DEFAULT_BACKOFF, type BackoffOptions } from './backoff';
import { DEFAULT_PULL, type PullOptions } from './pull-options';
import type { ConflictChoices } from './resolve-conflict';
import { runExclusive } from './run-exclusive';
import type { SyncContext } from './sync-context';
import { SyncError } from './sync-error';
import { PULL_RETRY, PullSchedule } from './pull-schedule';
import type { SyncStatus } from './sync-status';
import { SyncStatusKeeper, type SharedStatus } from './sync-status-keeper';

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

/** How often a running drain reports its progress (the sync bar's "n of m"). */
const PROGRESS_EVERY_MS = 250;

/** The earlier of two times, either of which may be unknown (null). */
const earliest = (a: number | null, b: number | null) =>
  a === null ? b : b === null ? a : Math.min(a, b);

/** The later of two times, either of which may be unknown (null). */
const later = (a: number | null, b: number | null) =>
  a === null ? b : b === null ? a : Math.max(a, b);

/**
 * The sync engine: what triggers a drain (app start, online, the tab shown, a save, a retry
 * timer, Sync now), one drain cycle at a time per tab (and one drain per user across tabs, by a
 * Web Lock), and a pull after draining when one is due. Its status lives in SyncStatusKeeper;
 * when it pulls, in PullSchedule; what happens to each entry, in drain-outbox.
 */
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
    stopped: () => stopped,
  };
  const lockName = options.lockName ?? 'trapline-outbox';
  const concurrency = options.concurrency ?? 3;
  const autoPull = options.autoPull ?? true;
  const idlePollMs = options.idlePollMs ?? 60_000;
  const pullOptions: PullOptions = { ...DEFAULT_PULL, ...options.pull };

  // `online` is the app's one connection state (lib/connection), which this engine's own requests
  // feed: a failed send or pull means no connection, an answer means connected.
  const keeper = new SyncStatusKeeper(ctx, connection.online, () => requestSync('clock'));
  const setStatus = keeper.set.bind(keeper);
  const schedule = new PullSchedule(
    keeper,
    { ...PULL_RETRY, ...options.pullRetry },
    ctx.now,
    ctx.random,
  );
  let cycle: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const teardown: Array<() => void> = [];

  const pause = () => {
    if (keeper.current.paused) return;
    setStatus({ paused: true }, true);
  };

  const scheduleTimer = (nextAttemptAt: number | null) => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (stopped || keeper.current.paused) return;
    let delay: number | null = null;
    if (nextAttemptAt !== null) delay = Math.max(0, nextAttemptAt - ctx.now());
    else if (keeper.current.pending > 0) delay = idlePollMs;
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
    // A pull that will follow the drain has its code fetched beside the drain's, not after the
    // drain ends: at a first sign-in (a trace at 4x CPU) the pull's chunk was asked for only then,
    // a round trip (~0.5 s) before the first page of sites could be. A failed fetch here is the
    // pull's own import's to report.
    if (autoPull && schedule.wantedNow) void import('./pull-records').catch(() => undefined);
    try {
      do {
        again = false;
        // Loaded on the first drain, not with the first screen (the service worker keeps it for
        // offline starts; registerType 'prompt' keeps an open page's chunks until it reloads).
        const { drainOutbox } = await import('./drain-outbox');
        const result = await runExclusive(lockName, () =>
          drainOutbox(ctx, {
            concurrency,
            shouldStop: () => stopped || keeper.current.paused,
            onPause: pause,
            onAcknowledged: () => {
              sentAny = true;
            },
            onProgress: reportProgress,
            onInFlight: (ids, records) => keeper.sendingNow(ids, records),
            onView: (view) => keeper.viewOfDrain(view),
          }),
        );
        nextAttemptAt = result.nextAttemptAt;
      } while (again && !keeper.current.paused && !stopped);
      if (autoPull && !keeper.current.paused && !stopped && mayBeOnline() && schedule.take())
        await pull().then(
          () => schedule.succeeded(),
          (err: unknown) => {
            if (!keeper.current.paused && !stopped) schedule.failed(err);
          },
        );
    } finally {
      reportProgress.cancel();
      await keeper.refreshCounts().catch(() => undefined);
      if (sentAny) await keeper.recordSyncIfAllSent(true).catch(() => undefined);
      setStatus({ draining: false, progress: null }, true);
      scheduleTimer(earliest(nextAttemptAt, schedule.wakeAt));
    }
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
    if (stopped || keeper.current.paused) return;
    // Offline for sure (navigator.onLine false is reliable, true is not): the 'online' event
    // resumes. Offline only by the app's own failed requests, it tries: its timer's retries and
    // Sync now are how a network that came back without an event gets used at once.
    if (!mayBeOnline()) return;
    schedule.asked(reason);
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
        if (again && !keeper.current.paused && !stopped) requestSync('again');
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
      await keeper.recordSyncIfAllSent();
    } catch (err) {
      if (err instanceof SyncError && err.action === 'pause') pause();
      throw err;
    }
  }

  /** False only when the browser says offline, which is reliable (its `true` is not). */
  function mayBeOnline() {
    return typeof navigator === 'undefined' || navigator.onLine !== false;
  }

  /** What another tab of this database said of its sync. */
  const heardFromTab = ({ lastSuccessAt, lastPullAt, ...rest }: SharedStatus) => {
    const status = keeper.current;
    const wasPaused = status.paused;
    // Sync times only move forward: a tab that has not read them yet (just opened) sends null,
    // and an older time is not news.
    const pulledElsewhere = schedule.pulledElsewhere(lastPullAt);
    setStatus({
      ...rest,
      lastSuccessAt: later(status.lastSuccessAt, lastSuccessAt),
      lastPullAt: later(status.lastPullAt, lastPullAt),
      ...(pulledElsewhere ? { pullFailure: null } : {}),
    });
    if (wasPaused && !rest.paused) requestSync('resume');
  };

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
          if (online === keeper.current.online) return;
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
        if (writesTo(parts, db.name, ['outbox'])) keeper.scheduleCounts();
      };
      Dexie.on.storagemutated.subscribe(onMutated);
      teardown.push(() => Dexie.on.storagemutated.unsubscribe(onMutated));
      void keeper.refreshCounts().catch(() => undefined);
      if (options.channelName !== null)
        keeper.openChannel(options.channelName ?? `trapline-sync:${db.name}`, heardFromTab);
      keeper.readLastSuccess();
      setStatus({ online: connection.online });
      requestSync('start');
    },
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      for (const fn of teardown.splice(0)) fn();
      keeper.close();
    },
    requestSync,
    resume() {
      setStatus({ paused: false }, true);
      requestSync('resume');
    },
    pull,
    subscribe: (fn) => keeper.subscribe(fn),
    getStatus: () => keeper.current,
    async discard(entryId, dependents = []) {
      const { discardEntry } = await import('./discard-entry');
      await discardEntry(ctx, entryId, dependents, keeper.entriesInFlight);
      await keeper.refreshCounts();
    },
    dependentsOf: async (entryId) => (await import('./discard-entry')).dependentsOf(ctx, entryId),
    async resolveConflict(entryId, choices) {
      const { resolveConflict } = await import('./resolve-conflict');
      await resolveConflict(ctx, entryId, choices);
      await keeper.refreshCounts();
      requestSync('conflict-resolved');
    },
    async settled() {
      for (;;) {
        if (cycle) await cycle;
        await keeper.refreshCounts();
        const status = keeper.current;
        if (status.paused || stopped) return;
        if (!cycle && status.pending === 0 && status.sending === 0) return;
        if (!cycle) {
          // Entries wait on their backoff: let the timer (or this wait) bring them round.
          await new Promise((resolve) =>
            setTimeout(resolve, Math.max(1, Math.min(50, (status.nextAttemptAt ?? 0) - ctx.now()))),
          );
          // The idle poll (idlePollMs, a minute) is no reason to wait when an entry is due now.
          const next = keeper.current.nextAttemptAt;
          const due = next === null || next <= ctx.now();
          if (!cycle && (!timer || due)) requestSync('settle');
        }
      }
    },
  };
  return engine;
}
