import type { OutboxEntry } from '#shared/schemas/outbox';
import { newId } from '../lib/ids';
import { entryTime } from './entry-time';
import type { TraplineDb } from './database';
import { ownerKeyOf } from './record-tables';

/** What a repository says about a new entry; the rest starts the same for every entry. */
export type EntryFields = Pick<OutboxEntry, 'entity' | 'localId' | 'op' | 'payload'> &
  Partial<Pick<OutboxEntry, 'refs' | 'dependsOn' | 'baseUpdated' | 'baseValues' | 'createdAt'>>;

/**
 * A new outbox entry of `db`: a fresh id (its Idempotency-Key), pending, not frozen, never tried,
 * owned by the database's user. The caller adds it in the same transaction as its record.
 */
export function newEntry(db: TraplineDb, fields: EntryFields): OutboxEntry {
  return {
    id: newId(),
    refs: [],
    dependsOn: [],
    baseUpdated: null,
    baseValues: null,
    createdAt: entryTime(),
    ...fields,
    state: 'pending',
    frozen: false,
    attempts: 0,
    nextAttemptAt: 0,
    lastError: null,
    ownerKey: ownerKeyOf(db),
  };
}
