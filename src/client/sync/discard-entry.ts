import type { OutboxEntry } from '#shared';
import { serverFieldValue } from '../db/field-values';
import { dependentsIn } from './outbox-graph';
import { allSyncTables, recordTable } from '../db/record-tables';
import type { SyncContext } from './sync-context';
import { DependentsNotConfirmedError } from './sync-error';

/** Everything that waits on the entry, directly or through others. */
export async function dependentsOf(ctx: SyncContext, entryId: string): Promise<OutboxEntry[]> {
  return dependentsIn(await ctx.db.outbox.toArray(), entryId);
}

/**
 * Drops an entry the user gave up on, and the dependents the caller confirmed (all of them, or
 * nothing happens: dependents are never dropped silently, nor left waiting on an entry that will
 * never be acknowledged). Local records follow:
 * - a create never acknowledged: the record goes too (the server has nothing of it);
 * - an update: the record's fields go back to the server's values;
 * - a delete: the record is kept, as the server has it.
 * Entries being sent are refused: their answer is on its way. That is the engine's `inFlight`,
 * and any entry stored as 'sending': the drain marks a create for sending in its parent's
 * acknowledgement, before it shows in `inFlight`, and a caller's `inFlight` may be older than
 * the mark. The stored state is read in this transaction, after any mark committed.
 */
export async function discardEntry(
  ctx: SyncContext,
  entryId: string,
  confirmedDependents: string[],
  inFlight: ReadonlySet<string>,
): Promise<void> {
  const { db } = ctx;
  await db.transaction('rw', allSyncTables(db), async () => {
    const entry = await db.outbox.get(entryId);
    if (!entry) return;
    const dependents = dependentsIn(await db.outbox.toArray(), entryId);
    const confirmed = new Set(confirmedDependents);
    const unconfirmed = dependents.filter((d) => !confirmed.has(d.id));
    if (unconfirmed.length > 0) throw new DependentsNotConfirmedError(unconfirmed);
    const all = [entry, ...dependents];
    const busy = all.find((e) => inFlight.has(e.id) || e.state === 'sending');
    if (busy)
      throw new Error(
        'This change is being sent right now; wait for its answer before discarding it',
      );
    // Children first, so no remaining entry ever waits on a discarded one.
    for (const e of all.reverse()) await discardOne(ctx, e);
  });
}

async function discardOne(ctx: SyncContext, entry: OutboxEntry) {
  const { db } = ctx;
  await db.outbox.delete(entry.id);
  const table = recordTable(db, entry.entity);
  const record = await table.get(entry.localId);
  if (!record) return;
  if (entry.op === 'create' && record.serverId === null) {
    await table.delete(entry.localId);
    const rest = await db.outbox.where('localId').equals(entry.localId).toArray();
    for (const e of rest) if (e.entity === entry.entity) await db.outbox.delete(e.id);
    return;
  }
  const remaining = (await db.outbox.where('localId').equals(entry.localId).toArray()).filter(
    (e) => e.entity === entry.entity,
  );
  const data = { ...record.data };
  if (entry.op === 'update') {
    for (const field of Object.keys(entry.payload)) {
      data[field] = serverFieldValue(entry.entity, record.server, field);
    }
  }
  await table.update(entry.localId, {
    data,
    deleted: entry.op === 'delete' ? false : record.deleted,
    problem: remaining.some((e) => e.state === 'parked' || e.state === 'conflict')
      ? record.problem
      : null,
    syncState:
      remaining.length === 0
        ? 'synced'
        : remaining.some((e) => e.state === 'parked')
          ? 'failed'
          : 'queued',
  });
}
