import { serverFieldValue } from '../db/field-values';
import { allSyncTables, recordTable } from '../db/record-tables';
import type { SyncContext } from './sync-context';

export type ConflictChoices = Record<string, 'mine' | 'theirs'>;

/**
 * Applies the user's choice for each field of a conflicting update:
 * - 'theirs': the field leaves the update and the record takes the server's value;
 * - 'mine': the field stays in the update, now based on the server's current version, so the
 *   next send overwrites that field (and only that field) without reporting a conflict again.
 * Fields without a choice keep the user's value. If no field is left, nothing needs sending.
 */
export async function resolveConflict(
  ctx: SyncContext,
  entryId: string,
  choices: ConflictChoices,
): Promise<void> {
  const { db } = ctx;
  await db.transaction('rw', allSyncTables(db), async () => {
    const entry = await db.outbox.get(entryId);
    if (!entry) throw new Error('This change is no longer waiting to be sent');
    if (entry.state !== 'conflict') throw new Error('This change has no conflict to resolve');
    const table = recordTable(db, entry.entity);
    const record = await table.get(entry.localId);
    if (!record) throw new Error('The record of this change is no longer on this tablet');
    const server = record.server ?? {};
    const payload = { ...entry.payload };
    const data = { ...record.data };
    for (const [field, choice] of Object.entries(choices)) {
      if (choice !== 'theirs' || !(field in payload)) continue;
      delete payload[field];
      data[field] = serverFieldValue(entry.entity, server, field);
    }
    const serverUpdated = typeof server.updated === 'string' ? server.updated : null;
    const others = (await db.outbox.where('localId').equals(entry.localId).toArray()).filter(
      (e) => e.entity === entry.entity && e.id !== entry.id,
    );
    if (Object.keys(payload).length === 0) {
      await db.outbox.delete(entry.id);
      await table.update(entry.localId, {
        data,
        problem: null,
        baseUpdated: serverUpdated,
        syncState: others.length === 0 ? 'synced' : 'queued',
      });
      return;
    }
    await db.outbox.update(entry.id, {
      payload,
      baseUpdated: serverUpdated,
      baseValues: Object.fromEntries(Object.keys(payload).map((f) => [f, server[f] ?? null])),
      state: 'pending',
      attempts: 0,
      nextAttemptAt: 0,
      lastError: null,
    });
    await table.update(entry.localId, {
      data,
      problem: null,
      baseUpdated: serverUpdated,
      syncState: 'queued',
    });
  });
}
