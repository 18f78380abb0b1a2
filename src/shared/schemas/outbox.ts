import { z } from 'zod';
import { errorBody } from './error';
import { ENTITIES } from '../entities';

export { ENTITIES, type Entity } from '../entities';

/**
 * Where a record stands with the server. A record is saved on the tablet and queued in one
 * transaction, so there is no "draft" state between (it was declared and never set).
 */
export const SYNC_STATES = ['queued', 'syncing', 'synced', 'failed', 'conflict'] as const;
export type SyncState = (typeof SYNC_STATES)[number];

export const OUTBOX_OPS = ['create', 'update', 'delete'] as const;
export type OutboxOp = (typeof OUTBOX_OPS)[number];

/**
 * A field of a payload that refers to a parent record not yet known to the server: resolved to
 * the parent's `serverId` at send time (ARCHITECTURE, client data model).
 */
export const localRef = z.object({
  field: z.string(),
  entity: z.enum(ENTITIES),
  localId: z.string(),
});
export type LocalRef = z.infer<typeof localRef>;

/** Why an entry is not being sent: retry later, parked for the user, or waiting on sign-in. */
export const outboxError = z.object({
  status: z.number().int().nullable(),
  reason: z.enum([
    'network',
    'timeout',
    'server',
    'rate_limited',
    'reauth',
    'rejected',
    'conflict',
  ]),
  body: errorBody.shape.error.nullable(),
  at: z.number(),
});
export type OutboxError = z.infer<typeof outboxError>;

/**
 * How long an Idempotency-Key is honoured (contract §9): the records service and the BFF's journal
 * replay a key's first answer for 24 hours from its first request, and after that the same key is
 * a new request. The one number both servers and the tablet (which stops trusting a key before
 * then: KEY_TRUSTED_FOR_MS) take it from.
 */
export const IDEMPOTENCY_WINDOW_MS = 24 * 3_600_000;

/**
 * How long after its first send the tablet sends a create again under the same key on its own:
 * the servers' window less an hour, for the tablet's clock, which measures the time, against
 * theirs, which keep the key. Past it, a create whose answer never came back may be on the server
 * already, and a server that has forgotten the key would make it a second time.
 */
export const KEY_TRUSTED_FOR_MS = IDEMPOTENCY_WINDOW_MS - 3_600_000;

/**
 * One queued change. `id` is the Idempotency-Key of its POST. An entry leaves the outbox only
 * after the server acknowledged it. Once `frozen` (sending has started) its payload never changes;
 * later edits of the record become a new update entry.
 */
export const outboxEntry = z.object({
  id: z.uuid(),
  entity: z.enum(ENTITIES),
  localId: z.string(),
  op: z.enum(OUTBOX_OPS),
  payload: z.record(z.string(), z.unknown()),
  refs: z.array(localRef),
  dependsOn: z.array(z.string()),
  /** For updates: the server's `updated` the edit was based on (conflict detection). */
  baseUpdated: z.string().nullable(),
  /** For updates: the server values of the changed fields the edit was based on. */
  baseValues: z.record(z.string(), z.unknown()).nullable(),
  state: z.enum(['pending', 'sending', 'parked', 'conflict']),
  frozen: z.boolean(),
  attempts: z.number().int().nonnegative(),
  nextAttemptAt: z.number(),
  lastError: outboxError.nullable(),
  createdAt: z.number(),
  ownerKey: z.string(),
  /** Creates: when the latest request with this key left the tablet (the tablet's clock). */
  sendingAt: z.number().nullable().optional(),
  /**
   * Creates: when the first request with this key that may have reached the server left the
   * tablet: one that got no answer, timed out, got a 5xx, or was under way when the app died.
   * An answer proving nothing was made (401, 429) does not set it. Absent or null until then
   * (entries stored before it existed have neither); a new key starts without one.
   */
  keySentAt: z.number().nullable().optional(),
});
export type OutboxEntry = z.infer<typeof outboxEntry>;

/**
 * Whether an error (a SyncError, a parked entry's lastError) says a create's outcome is unknown:
 * it may already be on the server (create_outcome_unknown, from the BFF or the tablet's own key
 * window). Such an entry is never sent under its key again; only the technician's Send again,
 * after a warning, sends it, under a new key.
 */
export function isOutcomeUnknown(
  error: { body: { code: string } | null } | null | undefined,
): boolean {
  return error?.body?.code === 'create_outcome_unknown';
}
