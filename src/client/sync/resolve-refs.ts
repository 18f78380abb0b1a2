import type { OutboxEntry } from '#shared';
import { recordKey } from './outbox-graph';
import { recordTable } from '../db/record-tables';
import type { SyncContext } from './sync-context';

export type ResolvedPayload =
  { ok: true; payload: Record<string, unknown> } | { ok: false; field: string; message: string };

/**
 * The payload to send: every reference to a parent by localId replaced by the parent's serverId,
 * read now (at send time), so the payload never holds a stale id. The drain sends an entry only
 * after its parent's create left the outbox, and that happens in the same transaction that stores
 * the parent's serverId; a parent still without one was never saved to the server.
 * `serverIds` holds ids the caller saw stored in such a transaction (the drain, from its own
 * acknowledgements, by `entity:localId`): a record's serverId never changes once stored, so
 * those need no read.
 */
export async function resolveRefs(
  ctx: SyncContext,
  entry: OutboxEntry,
  serverIds?: ReadonlyMap<string, number>,
): Promise<ResolvedPayload> {
  const payload = { ...entry.payload };
  for (const ref of entry.refs) {
    const known = serverIds?.get(recordKey(ref));
    if (known !== undefined) {
      payload[ref.field] = known;
      continue;
    }
    const parent = await recordTable(ctx.db, ref.entity).get(ref.localId);
    if (!parent || parent.serverId === null) {
      return {
        ok: false,
        field: ref.field,
        message: parent
          ? `The ${ref.field} this record belongs to has not reached the server yet`
          : `The ${ref.field} this record belongs to no longer exists on this tablet`,
      };
    }
    payload[ref.field] = parent.serverId;
  }
  return { ok: true, payload };
}
