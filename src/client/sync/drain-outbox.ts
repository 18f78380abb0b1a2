import type { OutboxEntry } from '../../shared';
import { acknowledge, holdForSignIn, markConflict, park, retryLater } from './entry-outcomes';
import { blockersOf, heldIds, indexOutbox } from './outbox-graph';
import { sendEntry } from './send-entry';
import type { SyncContext } from './sync-context';
import { SyncError } from './sync-error';

export type DrainHooks = {
  /** How many entries may be in flight together. */
  concurrency: number;
  /** Checked before each send: once true, nothing new is sent (sign-in needed, engine stopped). */
  shouldStop(): boolean;
  onPause(error: SyncError): void;
  onAcknowledged(entry: OutboxEntry): void;
  onProgress(progress: { sent: number; total: number }): void;
  /** Called with the ids being sent whenever that set changes. */
  onInFlight(ids: ReadonlySet<string>): void;
};

export type DrainResult = {
  sent: number;
  /** When the earliest entry waiting only on its backoff may be sent (ms epoch), or null. */
  nextAttemptAt: number | null;
};

/**
 * Sends every sendable entry of the outbox, `concurrency` at a time.
 * Invariant: an entry is sent only when every entry it waits on (blockersOf) has left the outbox,
 * which happens only once the server acknowledged it. The outbox is re-read after every finished
 * send, so entries saved meanwhile join the same drain.
 */
export async function drainOutbox(ctx: SyncContext, hooks: DrainHooks): Promise<DrainResult> {
  const inFlight = new Map<string, Promise<void>>();
  let sent = 0;
  let paused = false;
  // Entries whose handling threw (e.g. storage failure): not retried within this drain.
  const broken = new Set<string>();

  const run = (entry: OutboxEntry) => {
    const task = (async () => {
      const outcome = await sendEntry(ctx, entry);
      if (outcome.kind === 'gone') return;
      if (outcome.kind === 'ack') {
        await acknowledge(ctx, outcome.entry, outcome.body);
        sent += 1;
        hooks.onAcknowledged(outcome.entry);
      } else if (outcome.kind === 'conflict') {
        await markConflict(ctx, outcome.entry, outcome.server, outcome.fields, outcome.error);
      } else if (outcome.error.action === 'pause') {
        paused = true;
        await holdForSignIn(ctx, outcome.entry, outcome.error);
        hooks.onPause(outcome.error);
      } else if (outcome.error.action === 'park') {
        await park(ctx, outcome.entry, outcome.error);
      } else {
        await retryLater(ctx, outcome.entry, outcome.error);
      }
    })()
      .catch(async (err: unknown) => {
        broken.add(entry.id);
        const message = err instanceof Error ? err.message : String(err);
        await retryLater(
          ctx,
          entry,
          new SyncError('server', null, { code: 'internal', message }),
        ).catch(() => undefined);
      })
      .finally(() => {
        inFlight.delete(entry.id);
        hooks.onInFlight(new Set(inFlight.keys()));
      });
    inFlight.set(entry.id, task);
    hooks.onInFlight(new Set(inFlight.keys()));
  };

  for (;;) {
    const entries = await ctx.db.outbox.toArray();
    const index = indexOutbox(entries);
    const now = ctx.now();
    const held = heldIds(entries, index);
    const remaining = entries.filter(
      (e) => (e.state === 'pending' || e.state === 'sending') && !held.has(e.id),
    );
    hooks.onProgress({ sent, total: sent + remaining.length });

    if (!paused && !hooks.shouldStop()) {
      const ready = remaining.filter(
        (e) =>
          !inFlight.has(e.id) &&
          !broken.has(e.id) &&
          e.nextAttemptAt <= now &&
          blockersOf(e, index).length === 0,
      );
      for (const entry of ready) {
        if (inFlight.size >= hooks.concurrency) break;
        run(entry);
      }
    }
    if (inFlight.size === 0) {
      const waiting = remaining.filter(
        (e) => blockersOf(e, index).length === 0 && e.nextAttemptAt > now,
      );
      const nextAttemptAt =
        waiting.length > 0 ? Math.min(...waiting.map((e) => e.nextAttemptAt)) : null;
      return { sent, nextAttemptAt: paused ? null : nextAttemptAt };
    }
    // A failed task is already recorded in the outbox; the race only wakes the loop.
    await Promise.race([...inFlight.values()].map((p) => p.catch(() => undefined)));
  }
}
