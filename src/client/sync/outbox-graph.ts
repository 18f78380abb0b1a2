import type { OutboxEntry } from '#shared';

/**
 * Outbox order: oldest first, ties by id (as IndexedDB orders the createdAt index), except that
 * an entry naming another in its dependsOn comes after it whatever the times: two saves of one
 * record in the same millisecond (two tabs: each page's entry clock is its own) would otherwise
 * sort by id, at random, and each wait for the other (a record's entries go out in this order,
 * and after what they depend on), so that record and everything behind it would never be sent.
 */
export const older = (a: OutboxEntry, b: OutboxEntry) => {
  if (a.dependsOn.includes(b.id)) return 1;
  if (b.dependsOn.includes(a.id)) return -1;
  return a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
};

/** A record's key in the outbox graphs: `entity:localId`. */
/** Parked or in conflict: waiting on the technician, and holding back what depends on it. */
export const isStuck = (e: OutboxEntry) => e.state === 'parked' || e.state === 'conflict';

export const recordKey = (e: { entity: string; localId: string }) => `${e.entity}:${e.localId}`;

/**
 * Which entries must wait for which. An entry waits for:
 * - every entry named in its dependsOn that is still in the outbox (not yet acknowledged);
 * - the create of any parent it refers to, while that create is in the outbox;
 * - any earlier entry of the same record (a record's changes reach the server in order).
 */
export function blockersOf(entry: OutboxEntry, index: OutboxIndex): string[] {
  const blockers = entry.dependsOn.filter((id) => index.byId.has(id));
  for (const ref of entry.refs) {
    const parentCreate = index.createOf.get(`${ref.entity}:${ref.localId}`);
    if (parentCreate && parentCreate !== entry.id) blockers.push(parentCreate);
  }
  for (const sibling of index.byRecord.get(recordKey(entry)) ?? []) {
    if (sibling.id === entry.id) break;
    blockers.push(sibling.id);
  }
  return blockers;
}

export type OutboxIndex = {
  byId: Map<string, OutboxEntry>;
  /** Create entry id by `entity:localId`. */
  createOf: Map<string, string>;
  /** Entries of each record, oldest first. */
  byRecord: Map<string, OutboxEntry[]>;
};

function indexOutbox(entries: OutboxEntry[]): OutboxIndex {
  const sorted = [...entries].sort(older);
  const byId = new Map(sorted.map((e) => [e.id, e]));
  const createOf = new Map<string, string>();
  const byRecord = new Map<string, OutboxEntry[]>();
  for (const e of sorted) {
    if (e.op === 'create') createOf.set(recordKey(e), e.id);
    const list = byRecord.get(recordKey(e)) ?? [];
    list.push(e);
    byRecord.set(recordKey(e), list);
  }
  return { byId, createOf, byRecord };
}

/** Who waits on whom, reversed: for each entry, the entries whose blockers name it. */
function waitersOf(entries: OutboxEntry[], index: OutboxIndex): Map<string, OutboxEntry[]> {
  const waitsOn = new Map<string, OutboxEntry[]>();
  for (const e of entries) {
    for (const b of blockersOf(e, index)) {
      const list = waitsOn.get(b) ?? [];
      list.push(e);
      waitsOn.set(b, list);
    }
  }
  return waitsOn;
}

/** Everything reachable from `starts` through `waitsOn`, nearest first, starts excluded. */
function reachable(waitsOn: Map<string, OutboxEntry[]>, starts: string[]): OutboxEntry[] {
  const seen = new Set<string>(starts);
  const out: OutboxEntry[] = [];
  const queue = [...starts];
  // An index instead of shift(): shift is O(n) per call, quadratic over a long outbox.
  for (let i = 0; i < queue.length; i += 1) {
    for (const dep of waitsOn.get(queue[i]) ?? []) {
      if (seen.has(dep.id)) continue;
      seen.add(dep.id);
      out.push(dep);
      queue.push(dep.id);
    }
  }
  return out;
}

/**
 * Entries that cannot be sent until the user acts: those waiting, directly or through others,
 * on a parked or conflicting entry (which are not themselves "held"). One pass over the entries
 * and their waits, whatever the depth of the chains.
 */
export function heldIds(entries: OutboxEntry[], index = indexOutbox(entries)): Set<string> {
  const stuck = entries.filter((e) => e.state === 'parked' || e.state === 'conflict');
  if (stuck.length === 0) return new Set();
  const held = reachable(
    waitersOf(entries, index),
    stuck.map((e) => e.id),
  );
  return new Set(
    held.filter((e) => e.state !== 'parked' && e.state !== 'conflict').map((e) => e.id),
  );
}

/** Everything that waits on the entry, directly or transitively, nearest first. */
export function dependentsIn(entries: OutboxEntry[], entryId: string): OutboxEntry[] {
  return reachable(waitersOf(entries, indexOutbox(entries)), [entryId]);
}
