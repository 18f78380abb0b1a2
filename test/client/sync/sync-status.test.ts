import { describe, expect, it } from 'vitest';
import { heldBehind, syncSummary } from '../../../src/client/sync';
import { outboxCounts } from '../../../src/client/sync/sync-status';
import type { OutboxEntry } from '../../../src/shared';
import { deleteEntry } from './helpers/outbox-entry';

let at = 0;
/** An entry of the outbox as a repository queues it, with the given shape. */
const entry = (changes: Partial<OutboxEntry>): OutboxEntry => ({
  ...deleteEntry('owner', 'site', crypto.randomUUID()),
  op: 'create',
  createdAt: (at += 1),
  ...changes,
});

describe('syncSummary', () => {
  it('counts every change not on the server once, held-behind ones included', () => {
    const refused = entry({ state: 'parked' });
    const held = entry({
      entity: 'collection',
      refs: [{ field: 'site', entity: 'site', localId: refused.localId }],
      dependsOn: [refused.id],
    });
    const heldPool = entry({
      entity: 'pool',
      refs: [{ field: 'collection', entity: 'collection', localId: held.localId }],
      dependsOn: [held.id],
    });
    const conflicting = entry({ op: 'update', state: 'conflict' });
    // A later edit of the same record waits for the conflicting one.
    const laterEdit = entry({ op: 'update', localId: conflicting.localId });
    const unrelated = entry({ nextAttemptAt: 5_000 });
    const inFlight = entry({ state: 'sending' });
    const entries = [refused, held, heldPool, conflicting, laterEdit, unrelated, inFlight];

    const counts = outboxCounts(entries, new Set([inFlight.id]));
    expect(counts).toMatchObject({ pending: 1, sending: 1, parked: 1, conflict: 1, held: 3 });
    expect(syncSummary(counts)).toEqual({
      waiting: entries.length,
      ready: 2,
      attention: 2,
      held: 3,
      allSent: false,
    });
    const behind = heldBehind(entries);
    expect(behind.get(refused.id)?.map((e) => e.id)).toEqual([held.id, heldPool.id]);
    expect(behind.get(conflicting.id)?.map((e) => e.id)).toEqual([laterEdit.id]);
    expect(behind.has(unrelated.id)).toBe(false);
  });

  it('says all is sent only for an empty outbox', () => {
    expect(syncSummary(outboxCounts([], new Set()))).toMatchObject({ waiting: 0, allSent: true });
    const parkedOnly = [entry({ state: 'parked' })];
    expect(syncSummary(outboxCounts(parkedOnly, new Set()))).toMatchObject({
      waiting: 1,
      ready: 0,
      allSent: false,
    });
  });
});
