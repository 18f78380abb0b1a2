import Dexie, { type IntervalTree, type ObservabilitySet } from 'dexie';
import type { Entity, OutboxEntry } from '#shared';
import { nextTask } from '../lib/next-task';
import { tablePart } from '../lib/storage-mutations';
import { acknowledgeAll, type AckRequest, type Acknowledged } from './entry-acknowledging';
import { holdForSignIn, markConflict, park, retryLater } from './entry-refusing';
import { unmarkSending } from './entry-sending';
import { DrainGraph, type DrainTally } from './drain-graph';
import { recordKey } from './outbox-graph';
import { createOutboxReader } from './outbox-reader';
import { sendEntry } from './send-entry';
import type { SyncContext } from './sync-context';
import { SyncError } from './sync-error';

/**
 * How often, at most, a drain looks for entries saved since it read the outbox. Each look is an
 * IndexedDB read, and a queue of chains leaves a slot free after nearly every answer (a child
 * waits for its parent): looking every time cost two reads per entry sent. Saved entries are
 * still found within this long, and the whole read before the drain ends finds any left.
 */
const LOOK_FOR_ADDED_MS = 500;

export type DrainHooks = {
  /** How many entries may be in flight together. */
  concurrency: number;
  /** Checked before each send: once true, nothing new is sent (sign-in needed, engine stopped). */
  shouldStop(): boolean;
  onPause(error: SyncError): void;
  onAcknowledged(entry: OutboxEntry): void;
  onProgress(progress: { sent: number; total: number }): void;
  /**
   * Called whenever the set being sent changes, with the ids of the entries being sent and the
   * localIds of their records (what a record's "Sending" badge reads: see SyncStatus).
   */
  onInFlight(ids: ReadonlySet<string>, records: ReadonlySet<string>): void;
  /** Called once the drain has read the outbox, with its view (DrainView), and null when it ends. */
  onView?(view: DrainView | null): void;
};

/** The drain's view of the outbox, for the sync status while it runs. */
export type DrainView = {
  /** Its entries by what they wait for (kept as they change: costs nothing). */
  tally(): DrainTally;
  /**
   * Entries stored that the view does not hold yet (saved since it last looked), by one ranged
   * read of the newest keys. Never a count of the outbox: IndexedDB walks every entry to count
   * them (Chromium's backend as fake-indexeddb), so a count per status refresh made a week's
   * queue cost the square of its length.
   */
  countUnseen(): Promise<number>;
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
 * The drain reads the outbox once and keeps that view current itself (DrainGraph): its own
 * outcomes (an acknowledged entry leaves it and releases what waited only on it, a parked one
 * holds its dependents), and entries saved meanwhile, looked for with a ranged read of what is
 * newer when a free slot cannot be filled (at most every LOOK_FOR_ADDED_MS). Other writers only add entries or replace refused
 * ones, so the view never shows a dependency as acknowledged when it is not. The whole outbox is
 * read again before the drain ends (and the drain goes on if that shows more to send), so
 * nothing saved or fixed meanwhile is left behind. Each send costs the entries it touches, not
 * the outbox's size: a week offline drains in linear time.
 */
export async function drainOutbox(ctx: SyncContext, hooks: DrainHooks): Promise<DrainResult> {
  // Entries being sent, by id: the task sending each and its record.
  const inFlight = new Map<string, { task: Promise<void>; entity: Entity; localId: string }>();
  const reportInFlight = () =>
    hooks.onInFlight(
      new Set(inFlight.keys()),
      new Set(Array.from(inFlight.values(), (f) => f.localId)),
    );
  let sent = 0;
  let paused = false;
  // Entries whose handling threw (e.g. storage failure): not retried within this drain.
  const broken = new Set<string>();
  // Acknowledged in this drain: a read that began before the acknowledgement committed would
  // bring them back.
  const acknowledged = new Set<string>();
  const reader = createOutboxReader(ctx.db);
  // One entry of a record in flight at a time: its entries go out in the order the graph releases
  // them, and an entry moved onto a record while it was sent (absorbDuplicate folds a pulled
  // copy's entries into the record of its lost create) holds back the record's others until it
  // is answered, whatever their age.
  const sameRecord = (e: OutboxEntry, f: { entity: Entity; localId: string }) =>
    f.localId === e.localId && f.entity === e.entity;
  const recordBusy = (e: OutboxEntry) => {
    for (const f of inFlight.values()) if (sameRecord(e, f)) return true;
    for (const f of reserved.values()) if (sameRecord(e, f)) return true;
    return false;
  };
  // The create each answered slot sends next (takeForSlot), from the answer until its send
  // starts: out of the loop's reach, as if in flight (the acknowledgement marks it meanwhile).
  const reserved = new Map<string, OutboxEntry>();
  const skip = (e: OutboxEntry) =>
    inFlight.has(e.id) || reserved.has(e.id) || broken.has(e.id) || recordBusy(e);
  // The server id of each record whose create this drain saw acknowledged, by `entity:localId`:
  // its children's payloads take it from here instead of reading the parent's row again.
  const serverIds = new Map<string, number>();
  let graph = new DrainGraph();
  // The outbox was read whole since the last completion / looked for new entries since then.
  let fresh = false;
  let looked = false;
  // When the drain last looked (real time, not ctx.now: a test's frozen clock must not stop it).
  let lookedAt = -Infinity;
  // Outcomes recorded while a whole read is under way, applied again to what it returns.
  let during: Array<[string, Partial<OutboxEntry> | null]> | null = null;
  const record = (id: string, changes: Partial<OutboxEntry> | null) => {
    if (changes === null) graph.remove(id);
    else graph.update(id, changes);
    during?.push([id, changes]);
  };
  const readAll = async () => {
    const outcomes: Array<[string, Partial<OutboxEntry> | null]> = [];
    during = outcomes;
    try {
      const entries = await reader.all();
      const kept = entries.filter((e) => !acknowledged.has(e.id));
      graph = await DrainGraph.build(kept, nextTask);
      for (const [id, changes] of outcomes) {
        if (changes === null) graph.remove(id);
        else graph.update(id, changes);
      }
    } finally {
      during = null;
    }
    fresh = true;
    looked = true;
    lookedAt = performance.now();
  };
  const readAdded = async () => {
    lookedAt = performance.now();
    for (const e of await reader.added())
      if (!graph.has(e.id) && !acknowledged.has(e.id)) graph.add(e);
    looked = true;
  };

  const acknowledgeInGroup = groupAcknowledgements(ctx);
  const canSend = () => !paused && !hooks.shouldStop();
  /**
   * What the slot of an answered entry sends next, marked in that answer's acknowledgement and
   * reserved until then: a create the answer releases (its child), else the oldest ready create.
   * Without the second, a slot whose answer released nothing ended, and the entry the loop then
   * gave it was marked in a transaction of its own: two of a chain's six creates (its site, its
   * second pool). Updates and deletes are marked as they are sent (sendEntry).
   */
  const takeForSlot = (answered: OutboxEntry): OutboxEntry | null => {
    if (!canSend()) return null;
    const now = ctx.now();
    const next = graph.firstReleasedBy(answered.id, now, skip) ?? graph.takeReady(now, skip);
    if (!next) return null;
    if (next.op !== 'create') {
      graph.requeue(next.id);
      return null;
    }
    reserved.set(next.id, next);
    return next;
  };
  /** `marked`: the entry is already marked as being sent and frozen (see acknowledgeAll). */
  const run = (entry: OutboxEntry, marked = false) => {
    // The create this slot sends next (takeForSlot), marked in this entry's acknowledgement and
    // sent as soon as it commits (one transaction per entry instead of two).
    let handOff: OutboxEntry | null = null;
    // The create this slot reserved for its next send, if any.
    let nextHere: string | null = null;
    const task = (async () => {
      const outcome = await sendEntry(ctx, entry, serverIds, marked);
      if (outcome.kind === 'gone') {
        // Discarded, or no longer sendable: the view takes it as stored (a parked entry still
        // holds its dependents).
        record(entry.id, (await ctx.db.outbox.get(entry.id)) ?? null);
        return;
      }
      if (outcome.kind === 'ack') {
        const next = takeForSlot(entry);
        nextHere = next?.id ?? null;
        const acked = await acknowledgeInGroup({
          entry: outcome.entry,
          body: outcome.body,
          thenSend: next?.id,
        });
        if (acked.serverId !== null) serverIds.set(recordKey(outcome.entry), acked.serverId);
        for (const { id, localId } of acked.moved) {
          record(id, { localId });
          const flying = inFlight.get(id);
          if (flying) flying.localId = localId;
        }
        acknowledged.add(entry.id);
        record(entry.id, null);
        if (acked.next && next) {
          if (canSend()) {
            record(acked.next.id, acked.next);
            handOff = acked.next;
          } else {
            // The drain stopped meanwhile (pause, sign-out): it is not sent now.
            await unmarkSending(ctx, acked.next.id, next.frozen);
          }
        }
        sent += 1;
        hooks.onAcknowledged(outcome.entry);
      } else if (outcome.kind === 'conflict') {
        await markConflict(ctx, outcome.entry, outcome.server, outcome.fields, outcome.error);
        record(entry.id, { state: 'conflict' });
      } else if (outcome.error.action === 'pause') {
        paused = true;
        await holdForSignIn(ctx, outcome.entry, outcome.error);
        hooks.onPause(outcome.error);
      } else if (outcome.error.action === 'park') {
        await park(ctx, outcome.entry, outcome.error);
        record(entry.id, { state: 'parked' });
      } else {
        const nextAttemptAt = await retryLater(ctx, outcome.entry, outcome.error);
        record(entry.id, { state: 'pending', nextAttemptAt });
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
        if (nextHere !== null) {
          reserved.delete(nextHere);
          // Not sent by this slot after all (its mark failed, the drain stopped, the write
          // threw): back in the ready queue, for the loop (which dropped it while reserved).
          if (handOff?.id !== nextHere) graph.requeue(nextHere);
        }
        if (handOff) run(handOff, true);
        else reportInFlight();
      });
    inFlight.set(entry.id, { task, entity: entry.entity, localId: entry.localId });
    reportInFlight();
  };

  // Entries saved since the drain looked are looked for only after a write to the outbox of an
  // id the drain does not know (a save in this tab or another: Dexie's mutation event carries the
  // keys written). The drain's own writes, an acknowledgement or a mark per entry, are of ids it
  // knows: counting after them read nothing new, and read the ids of a queue saved a moment ago
  // (within the write window) every time.
  const known = (id: string) => graph.has(id) || acknowledged.has(id);
  const outboxPart = tablePart(ctx.db.name, 'outbox');
  let saved = true;
  const onMutated = (parts: ObservabilitySet) => {
    const written = parts[outboxPart];
    if (written && writesUnknown(written, known)) saved = true;
  };
  Dexie.on.storagemutated.subscribe(onMutated);
  try {
    await readAll();
    hooks.onView?.({
      tally: () => graph.tally(),
      async countUnseen() {
        const look = saved;
        saved = false;
        return (await reader.addedIds(known, look)).length;
      },
    });
    return await sendAll();
  } finally {
    hooks.onView?.(null);
    Dexie.on.storagemutated.unsubscribe(onMutated);
  }

  async function sendAll(): Promise<DrainResult> {
    // When set, the wait below also ends after this many ms, to look for entries saved meanwhile.
    let lookAfter: number | null = null;
    for (;;) {
      const now = ctx.now();
      hooks.onProgress({ sent, total: sent + graph.remaining });

      if (!paused && !hooks.shouldStop()) {
        while (inFlight.size < hooks.concurrency) {
          const entry = graph.takeReady(now, skip);
          if (!entry) break;
          run(entry);
        }
        // A free slot and nothing to fill it with: look for entries saved since (with nothing in
        // flight, the whole read below does).
        if (inFlight.size > 0 && inFlight.size < hooks.concurrency && !looked) {
          const lookIn = LOOK_FOR_ADDED_MS - (performance.now() - lookedAt);
          if (lookIn <= 0) {
            await readAdded();
            continue;
          }
          // Looked too recently: look again when the interval is over, if nothing in flight
          // ends first (a slow answer must not hold back what was saved meanwhile).
          lookAfter = lookIn;
        }
      }
      if (inFlight.size === 0) {
        if (!fresh) {
          await readAll();
          continue;
        }
        // An entry whose handling threw is due again after its backoff, but not within this drain:
        // it counts as waiting at least one base delay, so the engine's retry timer brings it
        // round (without it, the drain would report nothing due and the entry would sit until
        // the idle poll, a minute later).
        const dueAt = (e: OutboxEntry) =>
          broken.has(e.id) ? Math.max(e.nextAttemptAt, now + ctx.backoff.baseMs) : e.nextAttemptAt;
        return { sent, nextAttemptAt: paused ? null : graph.nextDue(now, dueAt) };
      }
      // A failed task is already recorded in the outbox; the race only wakes the loop.
      let timer: ReturnType<typeof setTimeout> | undefined;
      const waits = Array.from(inFlight.values(), (f) => f.task.catch(() => undefined));
      if (lookAfter !== null) {
        const ms = lookAfter;
        waits.push(new Promise<void>((resolve) => (timer = setTimeout(resolve, ms))));
      }
      await Promise.race(waits);
      clearTimeout(timer);
      lookAfter = null;
      fresh = false;
      looked = false;
    }
  }
}

/**
 * Acknowledgements written in groups: the first answer's transaction starts at once; answers that
 * arrive while it runs wait for it and then share the next one. No answer waits for a later one.
 * If a group's transaction fails, nothing of it was written, and each of its acknowledgements is
 * written again alone, so one entry's failure is its own (as with one transaction each).
 */
function groupAcknowledgements(ctx: SyncContext): (request: AckRequest) => Promise<Acknowledged> {
  type Waiting = AckRequest & { done(a: Acknowledged): void; fail(err: unknown): void };
  let waiting: Waiting[] = [];
  let writing = false;
  const write = async () => {
    writing = true;
    try {
      while (waiting.length > 0) {
        const group = waiting;
        waiting = [];
        const results = await acknowledgeAll(ctx, group).catch(() => null);
        if (results) {
          group.forEach((w, i) => w.done(results[i]));
          continue;
        }
        for (const w of group) {
          await acknowledgeAll(ctx, [w]).then(([acked]) => w.done(acked), w.fail);
        }
      }
    } finally {
      writing = false;
    }
  };
  return (request) =>
    new Promise<Acknowledged>((done, fail) => {
      waiting.push({ ...request, done, fail });
      if (!writing) void write();
    });
}

/**
 * Whether a mutation event's key ranges name an id `known` does not hold. A range wider than one
 * key (a delete of a range) names ids that cannot be listed: taken as unknown.
 */
function writesUnknown(tree: IntervalTree, known: (id: string) => boolean): boolean {
  const pending: IntervalTree[] = [tree];
  while (pending.length > 0) {
    const node = pending.pop();
    if (!node || !('from' in node)) continue;
    if (node.from !== node.to || typeof node.from !== 'string' || !known(node.from)) return true;
    if (node.l) pending.push(node.l);
    if (node.r) pending.push(node.r);
  }
  return false;
}
