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
 * which happens only once the server acknowledged it.
 * The drain works from a snapshot of the outbox that it keeps up to date with its own outcomes
 * (an acknowledged entry leaves it, a parked one is parked in it). Other writers only add entries
 * or replace refused ones, so the snapshot never shows a dependency as acknowledged when it is
 * not; it is re-read whenever a free slot cannot be filled from it, and always before the drain
 * ends, so entries saved meanwhile join the same drain. Re-reading after every send would cost
 * more than the sends.
 */
export async function drainOutbox(ctx: SyncContext, hooks: DrainHooks): Promise<DrainResult> {
  const inFlight = new Map<string, Promise<void>>();
  let sent = 0;
  let paused = false;
  // Entries whose handling threw (e.g. storage failure): not retried within this drain.
  const broken = new Set<string>();
  let snapshot = new Map<string, OutboxEntry>();
  let fresh = false;
  const reload = async () => {
    // Oldest first, so the per-iteration index sorts an already sorted list.
    const entries = await ctx.db.outbox.orderBy('createdAt').toArray();
    snapshot = new Map(entries.map((e) => [e.id, e]));
    fresh = true;
  };
  const patch = (id: string, changes: Partial<OutboxEntry> | null) => {
    const current = snapshot.get(id);
    if (!current) return;
    if (changes === null) snapshot.delete(id);
    else snapshot.set(id, { ...current, ...changes });
  };

  const run = (entry: OutboxEntry) => {
    const task = (async () => {
      const outcome = await sendEntry(ctx, entry);
      if (outcome.kind === 'gone') {
        patch(entry.id, null);
        return;
      }
      if (outcome.kind === 'ack') {
        await acknowledge(ctx, outcome.entry, outcome.body);
        patch(entry.id, null);
        sent += 1;
        hooks.onAcknowledged(outcome.entry);
      } else if (outcome.kind === 'conflict') {
        await markConflict(ctx, outcome.entry, outcome.server, outcome.fields, outcome.error);
        patch(entry.id, { state: 'conflict' });
      } else if (outcome.error.action === 'pause') {
        paused = true;
        await holdForSignIn(ctx, outcome.entry, outcome.error);
        hooks.onPause(outcome.error);
      } else if (outcome.error.action === 'park') {
        await park(ctx, outcome.entry, outcome.error);
        patch(entry.id, { state: 'parked' });
      } else {
        const nextAttemptAt = await retryLater(ctx, outcome.entry, outcome.error);
        patch(entry.id, { state: 'pending', nextAttemptAt });
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

  await reload();
  for (;;) {
    const entries = [...snapshot.values()];
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
      // A free slot and nothing to fill it with from the snapshot: look for entries saved since.
      if (inFlight.size < hooks.concurrency && !fresh) {
        await reload();
        continue;
      }
    }
    if (inFlight.size === 0) {
      if (!fresh) {
        await reload();
        continue;
      }
      // An entry whose handling threw is due again after its backoff, but not within this drain:
      // it counts as waiting at least one base delay, so the engine's retry timer brings it
      // round (without it, the drain would report nothing due and the entry would sit until
      // the idle poll, a minute later).
      const dueAt = (e: OutboxEntry) =>
        broken.has(e.id) ? Math.max(e.nextAttemptAt, now + ctx.backoff.baseMs) : e.nextAttemptAt;
      const waiting = remaining.filter((e) => blockersOf(e, index).length === 0 && dueAt(e) > now);
      const nextAttemptAt = waiting.length > 0 ? Math.min(...waiting.map(dueAt)) : null;
      return { sent, nextAttemptAt: paused ? null : nextAttemptAt };
    }
    // A failed task is already recorded in the outbox; the race only wakes the loop.
    await Promise.race([...inFlight.values()].map((p) => p.catch(() => undefined)));
    fresh = false;
  }
}
