import type { OutboxEntry } from '#shared';
import { MinHeap } from './min-heap';
import { isStuck, older, recordKey } from './outbox-graph';

/** What DrainGraph.tally counts. */
export type DrainTally = {
  /** Entries in the graph. */
  entries: number;
  /** Pending or being sent, and not held. */
  sendable: number;
  parked: number;
  conflict: number;
  /** Waiting, directly or through others, on a parked or conflicting entry. */
  held: number;
};

type Node = {
  entry: OutboxEntry;
  /** Entries in the graph this one waits on (blockersOf's three rules). */
  blockers: Set<string>;
  /** Entries in the graph that wait on this one. */
  dependents: Set<string>;
  /** Waits, directly or through others, on a parked or conflicting entry (heldIds). */
  held: boolean;
};

const isSendable = (e: OutboxEntry) => e.state === 'pending' || e.state === 'sending';

function addTo(map: Map<string, Set<string>>, key: string, id: string) {
  const set = map.get(key);
  if (set) set.add(id);
  else map.set(key, new Set([id]));
}

function deleteFrom(map: Map<string, Set<string>>, key: string, id: string) {
  const set = map.get(key);
  if (!set) return;
  set.delete(id);
  if (set.size === 0) map.delete(key);
}

/**
 * The drain's view of the outbox, kept current one change at a time instead of rebuilt per send:
 * the same waits as blockersOf and the same holds as heldIds (outbox-graph.ts), as blocker sets
 * with a reverse "waits on me" map, so an acknowledgement releases exactly its dependents, and
 * a ready queue, oldest first. Each change costs the entries it touches (log n for the queue),
 * whatever the outbox's size.
 *
 * Entries may arrive in any order (another tab's parent seen after its child): an arriving entry
 * also becomes a blocker of those already here that wait on it.
 */
export class DrainGraph {
  private readonly nodes = new Map<string, Node>();
  /** The create entry of each record, by `entity:localId`. */
  private readonly createOf = new Map<string, string>();
  /** Each record's entries, oldest first. */
  private readonly byRecord = new Map<string, OutboxEntry[]>();
  /** Entries naming an id in their dependsOn, by that id (present or not, yet). */
  private readonly wantedBy = new Map<string, Set<string>>();
  /** Entries referring to a parent record, by the parent's `entity:localId`. */
  private readonly refsTo = new Map<string, Set<string>>();
  /** Unblocked sendable entries, oldest first; stale items are skipped when popped. */
  private readonly ready = new MinHeap<OutboxEntry>((a, b) => older(a, b) < 0);
  private readonly queued = new Set<string>();
  /** Unblocked entries waiting on their backoff, soonest first; stale items are skipped. */
  private readonly backingOff = new MinHeap<{ id: string; at: number }>((a, b) => a.at < b.at);
  private sendable = 0;
  /** Parked and conflicting entries, and entries held behind them: kept as they change. */
  private stuck = { parked: 0, conflict: 0 };
  private heldCount = 0;

  constructor(entries: Iterable<OutboxEntry> = []) {
    for (const entry of [...entries].sort(older)) this.add(entry);
  }

  /**
   * The same graph as the constructor builds, `slice` entries per task with `between()` awaited
   * in between: a week's outbox (6,000 entries) built in one task froze the page for ~80 ms.
   */
  static async build(
    entries: Iterable<OutboxEntry>,
    between: () => Promise<void>,
    slice = 500,
  ): Promise<DrainGraph> {
    const graph = new DrainGraph();
    const sorted = [...entries].sort(older);
    for (let i = 0; i < sorted.length; i += slice) {
      if (i > 0) await between();
      for (let j = i; j < Math.min(i + slice, sorted.length); j += 1) graph.add(sorted[j]);
    }
    return graph;
  }

  has(id: string): boolean {
    return this.nodes.has(id);
  }

  /** Pending or being sent, and not held: what the drain may still send. */
  get remaining(): number {
    return this.sendable;
  }

  /** The graph's entries by what they wait for, without walking them (sync status, drain). */
  tally(): DrainTally {
    return {
      entries: this.nodes.size,
      sendable: this.sendable,
      parked: this.stuck.parked,
      conflict: this.stuck.conflict,
      held: this.heldCount,
    };
  }

  /** An entry new to the graph (an entry already in it is updated instead). */
  add(entry: OutboxEntry): void {
    if (this.nodes.has(entry.id)) {
      this.update(entry.id, entry);
      return;
    }
    const node: Node = { entry, blockers: new Set(), dependents: new Set(), held: false };
    this.nodes.set(entry.id, node);
    if (isSendable(entry)) this.sendable += 1;
    this.countStuck(entry, 1);
    const key = recordKey(entry);

    for (const id of entry.dependsOn) {
      addTo(this.wantedBy, id, entry.id);
      if (this.nodes.has(id)) this.link(id, entry.id);
    }
    for (const ref of entry.refs) {
      const parentKey = recordKey(ref);
      addTo(this.refsTo, parentKey, entry.id);
      const create = this.createOf.get(parentKey);
      if (create && create !== entry.id) this.link(create, entry.id);
    }
    // A record's changes reach the server in order: after every earlier one, before every later.
    const siblings = this.byRecord.get(key) ?? [];
    let at = siblings.length;
    while (at > 0 && older(entry, siblings[at - 1]) < 0) at -= 1;
    siblings.splice(at, 0, entry);
    this.byRecord.set(key, siblings);
    siblings.forEach((sibling, i) => {
      if (i < at) this.link(sibling.id, entry.id);
      else if (i > at) this.link(entry.id, sibling.id);
    });
    if (entry.op === 'create') {
      const previous = this.createOf.get(key);
      const previousEntry = previous ? this.nodes.get(previous)?.entry : undefined;
      if (!previousEntry || older(previousEntry, entry) < 0) this.createOf.set(key, entry.id);
      for (const child of this.refsTo.get(key) ?? [])
        if (child !== entry.id) this.link(entry.id, child);
    }
    for (const waiting of this.wantedBy.get(entry.id) ?? []) this.link(entry.id, waiting);

    if (isStuck(entry)) this.holdDependentsOf(node);
    this.enqueue(node);
  }

  /** The entry left the outbox (acknowledged, discarded): what waited on it only for it is released. */
  remove(id: string): void {
    const node = this.nodes.get(id);
    if (!node) return;
    const { entry } = node;
    if (isSendable(entry) && !node.held) this.sendable -= 1;
    if (node.held) this.heldCount -= 1;
    this.countStuck(entry, -1);
    this.nodes.delete(id);
    for (const blocker of node.blockers) this.nodes.get(blocker)?.dependents.delete(id);
    for (const dependent of node.dependents) {
      const other = this.nodes.get(dependent);
      if (!other) continue;
      other.blockers.delete(id);
      this.enqueue(other);
    }
    const key = recordKey(entry);
    const siblings = this.byRecord.get(key)?.filter((e) => e.id !== id) ?? [];
    if (siblings.length > 0) this.byRecord.set(key, siblings);
    else this.byRecord.delete(key);
    if (this.createOf.get(key) === id) this.createOf.delete(key);
    for (const dep of entry.dependsOn) deleteFrom(this.wantedBy, dep, id);
    for (const ref of entry.refs) deleteFrom(this.refsTo, recordKey(ref), id);
    // Only someone else's discard removes a parked entry; what it held may be free now.
    if (isStuck(entry) || node.held) this.recomputeHeld();
  }

  /** The entry's state changed (sending, parked, backing off...). */
  update(id: string, changes: Partial<OutboxEntry>): void {
    const node = this.nodes.get(id);
    if (!node) return;
    const before = node.entry;
    const after = { ...before, ...changes, id };
    if (!node.held) this.sendable += Number(isSendable(after)) - Number(isSendable(before));
    this.countStuck(before, -1);
    this.countStuck(after, 1);
    node.entry = after;
    if (isStuck(after) && !isStuck(before)) this.holdDependentsOf(node);
    else if (isStuck(before) && !isStuck(after)) this.recomputeHeld();
    this.enqueue(node);
  }

  /**
   * The oldest entry that may be sent now: nothing it waits on is in the outbox, its backoff is
   * over, and `skip` does not exclude it (in flight, broken). Null when there is none.
   */
  takeReady(now: number, skip: (entry: OutboxEntry) => boolean): OutboxEntry | null {
    for (let due = this.backingOff.peek(); due && due.at <= now; due = this.backingOff.peek()) {
      this.backingOff.pop();
      const node = this.nodes.get(due.id);
      if (node && node.entry.nextAttemptAt <= now) this.enqueue(node);
    }
    for (let entry = this.ready.pop(); entry; entry = this.ready.pop()) {
      this.queued.delete(entry.id);
      const node = this.nodes.get(entry.id);
      if (!node || node.blockers.size > 0 || !isSendable(node.entry) || skip(node.entry)) continue;
      if (node.entry.nextAttemptAt > now) {
        this.backingOff.push({ id: entry.id, at: node.entry.nextAttemptAt });
        continue;
      }
      return node.entry;
    }
    return null;
  }

  /** An entry takeReady returned and the drain did not send after all: ready again. */
  requeue(id: string): void {
    const node = this.nodes.get(id);
    if (node) this.enqueue(node);
  }

  /**
   * The oldest entry that removing `id` would make ready at `now`: one that waits on `id` and on
   * nothing else, is sendable, not held, not backing off, and not excluded by `skip`. Null if
   * there is none. Changes nothing: the drain uses it to send a child as its parent's
   * acknowledgement commits.
   */
  firstReleasedBy(
    id: string,
    now: number,
    skip: (entry: OutboxEntry) => boolean,
  ): OutboxEntry | null {
    const node = this.nodes.get(id);
    if (!node) return null;
    let first: OutboxEntry | null = null;
    for (const dependentId of node.dependents) {
      const dependent = this.nodes.get(dependentId);
      if (!dependent || dependent.held || dependent.blockers.size !== 1) continue;
      const { entry } = dependent;
      if (!isSendable(entry) || entry.nextAttemptAt > now || skip(entry)) continue;
      if (!first || older(entry, first) < 0) first = entry;
    }
    return first;
  }

  /**
   * The earliest due time, after `now`, of an entry that waits only on its backoff (`dueAt`
   * gives an entry's due time), or null. Walks every entry: for the end of a drain only.
   */
  nextDue(now: number, dueAt: (entry: OutboxEntry) => number): number | null {
    let next: number | null = null;
    for (const node of this.nodes.values()) {
      if (!isSendable(node.entry) || node.blockers.size > 0) continue;
      const at = dueAt(node.entry);
      if (at > now && (next === null || at < next)) next = at;
    }
    return next;
  }

  private countStuck(entry: OutboxEntry, by: 1 | -1) {
    if (entry.state === 'parked' || entry.state === 'conflict') this.stuck[entry.state] += by;
  }

  private link(blockerId: string, dependentId: string) {
    const blocker = this.nodes.get(blockerId);
    const dependent = this.nodes.get(dependentId);
    if (!blocker || !dependent || blockerId === dependentId) return;
    blocker.dependents.add(dependentId);
    dependent.blockers.add(blockerId);
    if (isStuck(blocker.entry) || blocker.held) this.hold(dependent);
  }

  private enqueue(node: Node) {
    if (node.blockers.size > 0 || !isSendable(node.entry) || this.queued.has(node.entry.id)) return;
    this.queued.add(node.entry.id);
    this.ready.push(node.entry);
  }

  /** Holds the node and everything waiting on it (a parked entry itself is not "held"). */
  private hold(start: Node) {
    const stack = [start];
    for (let node = stack.pop(); node; node = stack.pop()) {
      if (node.held || isStuck(node.entry)) continue;
      node.held = true;
      this.heldCount += 1;
      if (isSendable(node.entry)) this.sendable -= 1;
      for (const id of node.dependents) {
        const next = this.nodes.get(id);
        if (next) stack.push(next);
      }
    }
  }

  private holdDependentsOf(node: Node) {
    for (const id of node.dependents) {
      const next = this.nodes.get(id);
      if (next) this.hold(next);
    }
  }

  private recomputeHeld() {
    for (const node of this.nodes.values()) {
      if (node.held && isSendable(node.entry)) this.sendable += 1;
      node.held = false;
    }
    this.heldCount = 0;
    for (const node of this.nodes.values()) if (isStuck(node.entry)) this.holdDependentsOf(node);
  }
}
