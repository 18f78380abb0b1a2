import type { Entity, OutboxEntry } from '../../../../src/shared';

/** A delete entry as the repositories queue it for a synced record. */
export function deleteEntry(ownerKey: string, entity: Entity, localId: string): OutboxEntry {
  return {
    id: crypto.randomUUID(),
    entity,
    localId,
    op: 'delete',
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
    ownerKey,
  };
}
