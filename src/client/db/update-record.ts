import { isOutcomeUnknown, type Entity, type OutboxEntry } from '#shared';
import { newId } from '../lib/ids';
import { sameValue } from './field-values';
import type { TraplineDb } from './database';
import { entryTime } from './entry-time';
import { newEntry } from './new-entry';
import { compact, entriesOf, indexFields, stableJson, recordTable } from './record-tables';
import { RepositoryError } from './repository-error';
import { validateRecord } from './validate-record';

/**
 * Fields the service derives when a body leaves them out (a collection's location comes from its
 * site, contract §6): an edit that leaves one out means "unchanged", never "clear". The collection
 * form has no location at a normal site, so without this every edit would send `location: null`.
 */
const KEPT_WHEN_ABSENT: Partial<Record<Entity, readonly string[]>> = {
  collection: ['location'],
};

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** The UTC calendar date of an ISO date-time (as the forms show a date-only record), else null. */
function utcDate(value: string): string | null {
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : new Date(time).toISOString().slice(0, 10);
}

/**
 * Whether a stored value and an edited value mean the same: the same instant written in another
 * offset, a date-only input and the same calendar day, a lure record and its lure id, a populated
 * record and its id (normalizeValue) are no change.
 */
function sameDataValue(a: unknown, b: unknown): boolean {
  if (stableJson(a) === stableJson(b) || sameValue(a, b)) return true;
  if (typeof a === 'string' && typeof b === 'string') {
    if (DATE_ONLY.test(a) && !DATE_ONLY.test(b)) return utcDate(b) === a;
    if (DATE_ONLY.test(b) && !DATE_ONLY.test(a)) return utcDate(a) === b;
  }
  return false;
}

/** The fields of `next` that differ from `current` (a field absent from `next` becomes null). */
function changedFields(
  current: Record<string, unknown>,
  next: Record<string, unknown>,
): Record<string, unknown> {
  const changes: Record<string, unknown> = {};
  for (const key of new Set([...Object.keys(current), ...Object.keys(next)])) {
    const a = current[key] ?? null;
    const b = next[key] ?? null;
    if (!sameDataValue(a, b)) changes[key] = b;
  }
  return changes;
}

/** `next` with the fields of KEPT_WHEN_ABSENT it leaves out taken from `current`. */
function keepDerived(
  entity: Entity,
  current: Record<string, unknown>,
  next: Record<string, unknown>,
): Record<string, unknown> {
  const kept = { ...next };
  for (const key of KEPT_WHEN_ABSENT[entity] ?? []) {
    if (kept[key] === undefined && current[key] !== undefined) kept[key] = current[key];
  }
  return kept;
}

/**
 * `current` with the fields the technician changed from `opened` (the data the form opened with)
 * set as in `next`. A field the form left alone keeps its value in `current`, which a pull or
 * another tab may have made newer while the form was open: an edit never reverts it.
 */
function rebaseEdit(
  entity: Entity,
  opened: Record<string, unknown>,
  next: Record<string, unknown>,
  current: Record<string, unknown>,
): Record<string, unknown> {
  const data = { ...current };
  for (const key of Object.keys(changedFields(opened, keepDerived(entity, opened, next)))) {
    if (next[key] === undefined) delete data[key];
    else data[key] = next[key];
  }
  return data;
}

/** Server value of a data field, as a base for conflict detection (ids for populated references). */
function serverValue(server: Record<string, unknown> | null, field: string): unknown {
  const v = server?.[field];
  if (
    v &&
    typeof v === 'object' &&
    !Array.isArray(v) &&
    typeof (v as { id?: unknown }).id === 'number' &&
    !('coordinates' in v)
  ) {
    return (v as { id: number }).id;
  }
  return v ?? null;
}

/** Rewrites every entry that waited on `oldId` to wait on `newId` instead (same transaction). */
async function redirectDependents(db: TraplineDb, oldId: string, nextId: string): Promise<void> {
  const dependents = await db.outbox.filter((e) => e.dependsOn.includes(oldId)).toArray();
  for (const d of dependents) {
    await db.outbox.update(d.id, {
      dependsOn: d.dependsOn.map((id) => (id === oldId ? nextId : id)),
    });
  }
}

/**
 * The fix of a refused entry: same op, new Idempotency-Key, sent afresh. The server remembers the
 * refused body under the old key, so the old key can never carry it again; dependents follow the
 * new id. Runs inside the caller's transaction (record table and outbox).
 */
async function rekeyParked(
  db: TraplineDb,
  parked: OutboxEntry,
  payload: Record<string, unknown>,
): Promise<void> {
  const fixed: OutboxEntry = {
    ...parked,
    id: newId(),
    payload,
    state: 'pending',
    frozen: false,
    attempts: 0,
    nextAttemptAt: 0,
    lastError: null,
    // A new key: nothing has been sent under it.
    sendingAt: null,
    keySentAt: null,
  };
  await db.outbox.delete(parked.id);
  await db.outbox.add(fixed);
  await redirectDependents(db, parked.id, fixed.id);
}

/**
 * "Send again" of a parked entry, unchanged (a create whose outcome the server could not tell):
 * the same record under a new Idempotency-Key, as a fix would send it. The technician has been
 * told it may make a second copy if the first one did arrive.
 */
export async function sendParkedAgain(db: TraplineDb, entryId: string): Promise<void> {
  const first = await db.outbox.get(entryId);
  if (!first) throw new RepositoryError('not_found', 'This change is no longer on this tablet');
  const table = recordTable(db, first.entity);
  await db.transaction('rw', table, db.outbox, async () => {
    const parked = await db.outbox.get(entryId);
    if (parked?.state !== 'parked')
      throw new RepositoryError('not_found', 'This change is not waiting to be sent again');
    await rekeyParked(db, parked, parked.payload);
    await table.update(parked.localId, { problem: null, syncState: 'queued' });
  });
}

/**
 * Saves an edit of a record (outbox rules), in ONE transaction over the record table and outbox:
 * - create still queued and not frozen → the record's data and that entry's payload change in place;
 * - create (or update) parked by the server → its payload is replaced under a NEW id (the server
 *   remembers the refused body under the old Idempotency-Key), dependents follow the new id, the
 *   problem is cleared and the entry is pending again;
 * - create parked because it may already be on the server (isOutcomeUnknown) → its payload
 *   changes in place and it stays parked: only Send again sends it;
 * - create frozen (sending) or already synced → a new `update` entry with only the changed fields,
 *   the server's `updated` and values of those fields as its base.
 * `next` is the complete new data (create shape, without the parent field). `opened`, from a
 * form, is the data the form opened with: only the fields that differ from it are edits (see
 * rebaseEdit). Returns false when nothing changed (nothing is written).
 */
export async function updateRecord(
  db: TraplineDb,
  entity: Entity,
  localId: string,
  next: Record<string, unknown>,
  opened?: Record<string, unknown>,
  /**
   * The key of the form draft the edit was typed in (use-form-draft's draftKey): deleted in the
   * same transaction (undone with it if the edit is refused), so a tab killed right after the
   * save never offers the saved typing again as unsaved (see createRecords).
   */
  draftKey?: string,
): Promise<boolean> {
  const table = recordTable(db, entity);
  const tables = draftKey ? [table, db.outbox, db.meta] : [table, db.outbox];
  return db.transaction('rw', tables, async () => {
    if (draftKey) await db.meta.delete(draftKey);
    const row = await table.get(localId);
    if (!row) throw new RepositoryError('not_found', `This ${entity} is no longer on this tablet`);
    if (row.deleted) throw new RepositoryError('deleted', `This ${entity} was deleted`);
    const data = compact(
      opened ? rebaseEdit(entity, opened, next, row.data) : keepDerived(entity, row.data, next),
    );
    const entries = await entriesOf(db, localId);
    const changes = changedFields(row.data, data);
    const parked = entries.find((e) => e.state === 'parked' && e.op !== 'delete');
    const openCreate = entries.find((e) => e.op === 'create' && !e.frozen && e.state === 'pending');
    const mayBeOnServer = parked?.op === 'create' && isOutcomeUnknown(parked.lastError);
    if (Object.keys(changes).length === 0 && (!parked || mayBeOnServer)) return false;
    const now = Date.now();
    const recordPatch = { data, updatedAt: now, ...indexFields(entity, data) };

    if (parked && mayBeOnServer) {
      // It may already be on the server: an edit must not send it again under a new key. The
      // edit is kept, and the entry stays parked until the technician's Send again (which warns
      // that it may make a second copy). It is never sent under its old key again, so its
      // payload may change although it is frozen.
      validateRecord(entity, 'create', data);
      await db.outbox.put({ ...parked, payload: data });
      await table.update(localId, recordPatch);
      return true;
    }

    if (openCreate && !parked) {
      validateRecord(entity, 'create', data);
      await db.outbox.update(openCreate.id, { payload: data });
      await table.update(localId, recordPatch);
      return true;
    }

    if (parked) {
      const payload = parked.op === 'create' ? data : { ...parked.payload, ...changes };
      validateRecord(entity, parked.op === 'create' ? 'create' : 'update', payload);
      await rekeyParked(db, parked, payload);
      await table.update(localId, { ...recordPatch, problem: null, syncState: 'queued' });
      return true;
    }

    validateRecord(entity, 'update', changes);
    const server = (row.server ?? null) as Record<string, unknown> | null;
    const base = Object.fromEntries(Object.keys(changes).map((k) => [k, serverValue(server, k)]));
    // A field the form changed that also changed under it since it opened (a pull: the office's
    // edit) was typed over the value the technician saw, not the office's: based on what the form
    // opened with, the send shows a conflict instead of overwriting the office's value. No
    // `updated` fits that base, so none is given (conflict detection then compares the fields).
    const underneath = opened
      ? Object.keys(changes).filter((k) => !sameValue(opened[k], row.data[k]))
      : [];
    for (const k of underneath) base[k] = opened?.[k];
    await db.outbox.add(
      newEntry(db, {
        entity,
        localId,
        op: 'update',
        payload: changes,
        dependsOn: entries.map((e) => e.id),
        baseUpdated:
          underneath.length > 0 ? null : ((server?.updated as string | undefined) ?? null),
        baseValues: base,
        createdAt: entryTime(),
      }),
    );
    await table.update(localId, { ...recordPatch, syncState: 'queued' });
    return true;
  });
}
