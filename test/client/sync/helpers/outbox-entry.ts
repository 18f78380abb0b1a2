import type { Entity, OutboxEntry } from '../../../../src/shared';

/** An outbox entry as the repositories write it: a pending create unless `fields` say more. */
export function outboxEntry(
  fields: Partial<OutboxEntry> & Pick<OutboxEntry, 'entity' | 'localId'>,
): OutboxEntry {
  return {
    id: crypto.randomUUID(),
    op: 'create',
    payload: {},
    refs: [],
    dependsOn: [],
    baseUpdated: null,
    baseValues: null,
    state: 'pending',
    frozen: false,
    attempts: 0,
    nextAttemptAt: 0,
    lastError: null,
    createdAt: Date.now(),
    ownerKey: 'test',
    ...fields,
  };
}

/** A delete entry as the repositories queue it for a synced record. */
export function deleteEntry(ownerKey: string, entity: Entity, localId: string): OutboxEntry {
  return outboxEntry({ entity, localId, op: 'delete', ownerKey });
}
