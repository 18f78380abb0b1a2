import type { OutboxEntry } from '#shared';
import { readWholeOutbox } from './outbox-reader';
import type { DrainView } from './drain-outbox';
import type { SyncContext } from './sync-context';
import {
  INITIAL_STATUS,
  drainingCounts,
  outboxCounts,
  syncSummary,
  type SyncStatus,
} from './sync-status';

const META_LAST_SUCCESS = 'sync.lastSuccessAt';
/** A failure stamped this far after now means the clock was set back (see failedLater). */
export const CLOCK_SLACK_MS = 60_000;

/** The part of the status other tabs of the same user are told (the rest each tab counts itself). */
export type SharedStatus = Pick<
  SyncStatus,
  'draining' | 'progress' | 'lastSuccessAt' | 'lastPullAt' | 'paused'
>;

type ChannelMessage = { type: 'status'; status: SharedStatus };

/**
 * The sync engine's status and who hears of it: the screens (subscribe), other tabs of the same
 * database (a BroadcastChannel), and the counts recomputed from the outbox. Invariants:
 * - `counted` turns true only after a count from the outbox itself; nothing says "All changes
 *   sent" from zeros nobody counted;
 * - counts are read one at a time, one more if asked meanwhile (coalesced), and while a drain runs
 *   from its view of the outbox (DrainView), never by re-reading every entry;
 * - "last synced" is stamped only for a sync that left nothing waiting.
 */
export class SyncStatusKeeper {
  private status: SyncStatus;
  private readonly listeners = new Set<(s: SyncStatus) => void>();
  private channel: BroadcastChannel | null = null;
  /** Entries in flight and the records they belong to, as the drain last said. */
  private inFlight: ReadonlySet<string> = new Set();
  private sendingRecords: ReadonlySet<string> = new Set();
  private drainView: DrainView | null = null;
  private counting: Promise<void> | null = null;
  private countAgain = false;
  private countTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly ctx: SyncContext,
    online: boolean,
    /** Entries were found stamped after now (the clock was set back) and were rebased. */
    private readonly onClockSetBack: () => void,
  ) {
    this.status = { ...INITIAL_STATUS, online };
  }

  get current(): SyncStatus {
    return this.status;
  }

  get entriesInFlight(): ReadonlySet<string> {
    return this.inFlight;
  }

  set(patch: Partial<SyncStatus>, broadcast = false): void {
    this.status = { ...this.status, ...patch };
    for (const fn of this.listeners) fn(this.status);
    if (broadcast && this.channel) {
      const { draining, progress, lastSuccessAt, lastPullAt, paused } = this.status;
      const message: ChannelMessage = {
        type: 'status',
        status: { draining, progress, lastSuccessAt, lastPullAt, paused },
      };
      this.channel.postMessage(message);
    }
  }

  subscribe(fn: (status: SyncStatus) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** The drain's entries in flight changed: the counts follow (throttled). */
  sendingNow(ids: ReadonlySet<string>, records: ReadonlySet<string>): void {
    this.inFlight = ids;
    this.sendingRecords = records;
    this.scheduleCounts();
  }

  /** The running drain's view of the outbox (counts are taken from it while it runs). */
  viewOfDrain(view: DrainView | null): void {
    this.drainView = view;
  }

  /** Recounts now (coalesced): one read at a time, one more if asked meanwhile. */
  refreshCounts(): Promise<void> {
    if (this.counting) {
      this.countAgain = true;
      return this.counting;
    }
    this.counting = (async () => {
      do {
        this.countAgain = false;
        const view = this.drainView;
        if (view) {
          const unseen = await view.countUnseen();
          // The drain ended meanwhile (or another began): count again, from the outbox itself.
          if (this.drainView === view)
            this.set({
              ...drainingCounts(view.tally(), unseen, this.inFlight),
              sendingRecords: this.sendingRecords,
            });
          else this.countAgain = true;
        } else {
          const entries = await readWholeOutbox(this.ctx.db);
          this.set({
            ...outboxCounts(entries, this.inFlight),
            sendingRecords: this.sendingRecords,
          });
          if (entries.some(this.failedLater(this.ctx.now()))) {
            await this.rebaseBackoff();
            this.countAgain = true;
            this.onClockSetBack();
          }
        }
      } while (this.countAgain);
    })().finally(() => {
      this.counting = null;
    });
    return this.counting;
  }

  /**
   * While draining, counts follow at most every 100 ms: re-reading the outbox after every send
   * would cost more than the sends. The end of each drain refreshes them exactly.
   */
  scheduleCounts(): void {
    if (this.countTimer) return;
    this.countTimer = setTimeout(() => {
      this.countTimer = null;
      void this.refreshCounts().catch(() => undefined);
    }, 100);
  }

  /**
   * "Last synced" only for a sync that left nothing waiting: a partial drain, a refused change
   * or a pause for sign-in is no such sync, and saying so would tell the technician to stop looking.
   */
  async recordSyncIfAllSent(countsFresh = false): Promise<void> {
    if (!countsFresh) await this.refreshCounts();
    if (this.status.paused || !syncSummary(this.status).allSent) return;
    const at = this.ctx.now();
    this.set({ lastSuccessAt: at }, true);
    await this.ctx.db.meta.put({ key: META_LAST_SUCCESS, value: at });
  }

  /** The last sync time kept from an earlier session (it only moves forward). */
  readLastSuccess(): void {
    void this.ctx.db.meta.get(META_LAST_SUCCESS).then((row) => {
      if (typeof row?.value === 'number' && (this.status.lastSuccessAt ?? 0) < row.value)
        this.set({ lastSuccessAt: row.value });
    });
  }

  /** Hears the other tabs of this database; `heard` gets what they said. */
  openChannel(name: string, heard: (status: SharedStatus) => void): void {
    if (typeof BroadcastChannel === 'undefined') return;
    this.channel = new BroadcastChannel(name);
    this.channel.onmessage = (event: MessageEvent<ChannelMessage>) => {
      if (event.data?.type === 'status') heard(event.data.status);
    };
  }

  close(): void {
    if (this.countTimer) clearTimeout(this.countTimer);
    this.countTimer = null;
    this.channel?.close();
    this.channel = null;
  }

  // An entry whose last failure is stamped later than now: the tablet's clock was set back since
  // (it ran ahead, then was put right). Its next try, stamped on the wrong clock, is as far off as
  // the clock moved (days: past any backoff, and past Sync now for a Retry-After): it waits again
  // only its own delay, from now. Found by the full counts (app start, after each drain).
  private failedLater = (now: number) => (e: OutboxEntry) =>
    e.state === 'pending' && e.lastError !== null && e.lastError.at > now + CLOCK_SLACK_MS;

  private async rebaseBackoff(): Promise<void> {
    const now = this.ctx.now();
    await this.ctx.db.outbox.filter(this.failedLater(now)).modify((e) => {
      if (!e.lastError) return;
      e.nextAttemptAt = now + Math.max(0, e.nextAttemptAt - e.lastError.at);
      e.lastError = { ...e.lastError, at: now };
    });
  }
}
